import type { FormInstance, ModalProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { DIALOG_MASK } from '../core/feedback.tsx';
import { PageModal } from './PageModal.tsx';
import { useSaving } from './use-saving.ts';

type SaveProps<V> = Omit<ModalProps, 'onOk' | 'confirmLoading'> & {
  /** Runs first, without the spinner (a form's validation); a rejection stops there. */
  prepare?(): Promise<V>;
  /**
   * Runs while the OK button spins, with what `prepare` answered. A rejection leaves the dialog open: the
   * request client has already shown why, and invalid fields show their own messages.
   */
  onSave(values: V): Promise<unknown>;
  /** `data-testid` of the OK button. */
  okTestId?: string;
};

/**
 * A dialog that saves what it shows: "saving" on the OK button while the request runs, open still after a
 * failure. The mask never closes it (spec section 9); "cancel" is worded once here.
 */
export function SaveModal<V = void>({ prepare, onSave, okTestId, okButtonProps, ...modal }: SaveProps<V>) {
  const { t } = useTranslation();
  const [saving, withSaving] = useSaving();

  async function save() {
    const values = prepare ? await prepare() : (undefined as V);
    await withSaving(() => onSave(values));
  }

  return (
    <PageModal
      mask={DIALOG_MASK}
      cancelText={t('list.cancel')}
      {...modal}
      confirmLoading={saving}
      onOk={() => void save().catch(() => undefined)}
      okButtonProps={{ ...okButtonProps, 'data-testid': okTestId } as never}
    />
  );
}

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

/** A dialog around a form that sends it: validate, then save (SaveModal). */
export function FormModal<V>({ form, onSubmit, ...modal }: Props<V>) {
  return <SaveModal<V> {...modal} prepare={() => form.validateFields()} onSave={onSubmit} />;
}
