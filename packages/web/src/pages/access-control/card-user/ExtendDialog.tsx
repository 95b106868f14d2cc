import { useEffect, useState } from 'react';
import { DatePicker, Form, Input, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { antdRule, formatDate, required } from '@gatehouse/shared';
import { http } from '../../../app/http.ts';
import { DIALOG_MASK, feedback } from '../../../app/feedback.tsx';
import type { HolderRow } from './holder-form.tsx';
import { PageModal } from '../../../components/PageModal.tsx';

export interface ExtendRequest {
  holders: HolderRow[];
  done(): void;
  cancel(): void;
}

/**
 * The proposed new end: a year after the later of now and the latest current end (an extension must move
 * every holder's end later; the server refuses one that does not, naming the holder).
 */
export function proposedEnd(holders: readonly Pick<HolderRow, 'ValidTo'>[], now: Dayjs = dayjs()): Dayjs {
  const latest = holders.reduce((max, h) => (dayjs(h.ValidTo).isAfter(max) ? dayjs(h.ValidTo) : max), now);
  return latest.add(1, 'year').endOf('day');
}

/** Extends one or many holders to a new end of validity, with a remark (change and renewal records). */
export function ExtendDialog({ request }: { request: ExtendRequest | null }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ ValidTo: Dayjs; Remark?: string }>();
  const [saving, setSaving] = useState(false);
  const holders = request?.holders ?? [];

  useEffect(() => {
    if (request) form.setFieldsValue({ ValidTo: proposedEnd(request.holders), Remark: undefined });
  }, [request, form]);

  async function save() {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await http.post('/api/CardUser/Extend', {
        Ids: holders.map((h) => h.Id),
        ValidTo: values.ValidTo.toISOString(),
        Remark: values.Remark?.trim() || null,
      });
      feedback.success(t('accessControl.message.extended', { count: holders.length }));
      request!.done();
    } finally {
      setSaving(false);
    }
  }

  const one = holders.length === 1 ? holders[0] : undefined;
  return (
    <PageModal
      open={request !== null}
      title={t('acUi.holder.extendTitle')}
      mask={DIALOG_MASK}
      forceRender
      confirmLoading={saving}
      okText={t('acUi.holder.extend')}
      cancelText={t('list.cancel')}
      onCancel={() => request?.cancel()}
      onOk={() => void save().catch(() => undefined)}
      okButtonProps={{ 'data-testid': 'extend-ok' } as never}
    >
      <Typography.Paragraph>
        {one
          ? t('acUi.holder.extendOne', { name: one.Name, end: formatDate(one.ValidTo, 'YYYY-MM-DD HH:mm') })
          : t('acUi.holder.extendMany', { count: holders.length })}
      </Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item
          name="ValidTo"
          label={t('accessControl.field.NewValidTo')}
          rules={[antdRule((k) => t(k), required)]}
        >
          <DatePicker showTime style={{ width: '100%' }} data-testid="extend-ValidTo" />
        </Form.Item>
        <Form.Item name="Remark" label={t('accessControl.field.Remark')}>
          <Input.TextArea rows={2} maxLength={200} showCount data-testid="extend-Remark" />
        </Form.Item>
      </Form>
    </PageModal>
  );
}
