import { DatePicker, Form } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { antdRule, required } from '@gatehouse/shared';
import { http } from '../../../core/http.ts';
import { feedback } from '../../../core/feedback.tsx';
import { ChannelPicker } from './ChannelPicker.tsx';
import { HolderSelect } from './HolderSelect.tsx';
import { validityBody } from './validity.ts';
import { FormModal } from '../../../components/FormModal.tsx';

interface Values {
  CardUserId: number;
  ChannelIds: number[];
  Validity?: [Dayjs | null, Dayjs | null] | null;
}

interface Props {
  open: boolean;
  onClose(): void;
  onGranted(): void;
}

/**
 * Grants one holder's cards onto chosen channels. Without a validity of its own the authorisation follows
 * the holder's (and an extension of the holder carries over).
 */
export function GrantDialog({ open, onClose, onGranted }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const rule = antdRule((k) => t(k), required);

  async function save(values: Values) {
    const result = await http.post<{ Granted: number; Updated: number; Unchanged: number }>(
      '/api/CardUserLinkChannel/Grant',
      { CardUserId: values.CardUserId, ChannelIds: values.ChannelIds, ...validityBody(values.Validity) },
    );
    feedback.success(
      t('accessControl.message.granted', {
        granted: result.Granted,
        updated: result.Updated,
        unchanged: result.Unchanged,
      }),
      5,
    );
    onGranted();
  }

  return (
    <FormModal
      form={form}
      open={open}
      title={t('acUi.grant.title')}
      width={640}
      destroyOnHidden
      okText={t('acUi.grant.submit')}
      onCancel={onClose}
      onSubmit={save}
      okTestId="grant-ok"
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="CardUserId" label={t('accessControl.field.HolderName')} rules={[rule]}>
          <HolderSelect />
        </Form.Item>
        <Form.Item name="ChannelIds" label={t('accessControl.field.Channels')} rules={[rule]}>
          <ChannelPicker />
        </Form.Item>
        <Form.Item
          name="Validity"
          label={t('accessControl.field.CustomValidity')}
          extra={t('acUi.grant.validityHint')}
        >
          <DatePicker.RangePicker showTime style={{ width: '100%' }} data-testid="grant-validity" />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
