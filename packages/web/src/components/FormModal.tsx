import type { FormInstance, ModalProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { DIALOG_MASK } from '../core/feedback.tsx';
import { PageModal } from './PageModal.tsx';
import { useSaving } from './use-saving.ts';

type Props<V> = Omit<ModalProps, 'onOk' | 'confirmLoading'> & {
  form: FormInstance<V>;
  /**
   * Runs with the validated values while the OK button spins. A rejection leaves the dialog open: the
   * request client has already shown why, and invalid fields show their own messages.
   */
  onSubmit(values: V): Promise<unknown>;
  /** `data-testid` of the OK button. */
  okTestId: string;
};

/**
 * A dialog around a form that sends it: validate, show "saving" while the request runs, stay open on a
 * failure. The mask never closes it (spec section 9); "cancel" is worded once here.
 */
export function FormModal<V>({ form, onSubmit, okTestId, okButtonProps, ...modal }: Props<V>) {
  const { t } = useTranslation();
  const [saving, withSaving] = useSaving();

  async function submit() {
    const values = await form.validateFields();
    await withSaving(() => onSubmit(values));
  }

  return (
    <PageModal
      mask={DIALOG_MASK}
      cancelText={t('list.cancel')}
      {...modal}
      confirmLoading={saving}
      onOk={() => void submit().catch(() => undefined)}
      okButtonProps={{ ...okButtonProps, 'data-testid': okTestId } as never}
    />
  );
}
