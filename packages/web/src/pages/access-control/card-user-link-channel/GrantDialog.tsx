import { useState } from 'react';
import { DatePicker, Form } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { antdRule, required } from '@gatehouse/shared';
import { http } from '../../../app/http.ts';
import { DIALOG_MASK, feedback } from '../../../app/feedback.tsx';
import { ChannelPicker } from './ChannelPicker.tsx';
import { HolderSelect } from './HolderSelect.tsx';
import { validityBody } from './validity.ts';
import { PageModal } from '../../../components/PageModal.tsx';

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
  const [saving, setSaving] = useState(false);
  const rule = antdRule((k) => t(k), required);

  async function save() {
    const values = await form.validateFields();
    setSaving(true);
    try {
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
    } finally {
      setSaving(false);
    }
  }

  return (
    <PageModal
      open={open}
      title={t('acUi.grant.title')}
      width={640}
      mask={DIALOG_MASK}
      destroyOnHidden
      confirmLoading={saving}
      okText={t('acUi.grant.submit')}
      cancelText={t('list.cancel')}
      onCancel={onClose}
      onOk={() => void save().catch(() => undefined)}
      okButtonProps={{ 'data-testid': 'grant-ok' } as never}
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
    </PageModal>
  );
}
