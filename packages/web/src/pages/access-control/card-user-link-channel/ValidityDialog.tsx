import { useEffect, useState } from 'react';
import { DatePicker, Form, Radio, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { antdRule, required } from '@gatehouse/shared';
import { http } from '../../../app/http.ts';
import { DIALOG_MASK, feedback } from '../../../app/feedback.tsx';
import type { AuthorizationRow } from './types.ts';
import { PageModal } from '../../../components/PageModal.tsx';

interface Values {
  Own: boolean;
  Range?: [Dayjs, Dayjs];
}

interface Props {
  item: AuthorizationRow | null;
  onClose(): void;
  onSaved(): void;
}

/**
 * An authorisation's validity: the holder's (followed as it changes) or a range of its own, which the list
 * shows within the holder's. A change waits for the device sync (pending update).
 */
export function ValidityDialog({ item, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const own = Form.useWatch('Own', form) as boolean | undefined;

  useEffect(() => {
    if (item)
      form.setFieldsValue({
        Own: item.CustomValidity,
        Range: [dayjs(item.ValidFrom), dayjs(item.ValidTo)],
      });
  }, [item, form]);

  async function save() {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await http.put('/api/CardUserLinkChannel', {
        Id: item!.Id,
        ValidFrom: values.Own && values.Range ? values.Range[0].toISOString() : null,
        ValidTo: values.Own && values.Range ? values.Range[1].toISOString() : null,
      });
      feedback.success(t('list.saved'));
      onSaved();
    } finally {
      setSaving(false);
    }
  }

  return (
    <PageModal
      open={item !== null}
      title={t('acUi.auth.validityTitle')}
      mask={DIALOG_MASK}
      forceRender
      confirmLoading={saving}
      okText={t('list.save')}
      cancelText={t('list.cancel')}
      onCancel={onClose}
      onOk={() => void save().catch(() => undefined)}
      okButtonProps={{ 'data-testid': 'validity-ok' } as never}
    >
      <Typography.Paragraph>
        {item &&
          t('acUi.auth.validitySubject', {
            holder: item.HolderName,
            channel: `${item.DeviceName} · ${item.ChannelName}`,
          })}
      </Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item name="Own">
          <Radio.Group
            options={[
              { value: false, label: t('acUi.auth.followHolder') },
              { value: true, label: t('acUi.auth.ownRange') },
            ]}
            data-testid="validity-own"
          />
        </Form.Item>
        {own && (
          <Form.Item
            name="Range"
            label={t('accessControl.field.CustomValidity')}
            rules={[antdRule((k) => t(k), required)]}
          >
            <DatePicker.RangePicker showTime style={{ width: '100%' }} />
          </Form.Item>
        )}
      </Form>
    </PageModal>
  );
}
