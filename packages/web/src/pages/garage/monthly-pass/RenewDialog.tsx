import { useState } from 'react';
import { Descriptions, Form, Input, InputNumber } from 'antd';
import dayjs from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MAX_PASS_UNITS, antdRule, formatCents, formatDate, required } from '@gatehouse/shared';
import { http } from '../../../app/http.ts';
import { DIALOG_MASK, feedback } from '../../../app/feedback.tsx';
import type { PassRow } from './PassesList.tsx';
import { PageModal } from '../../../components/PageModal.tsx';

/** Renewal sells the next pass under the same rule, from where this one ends (or now, once it has ended). */
export function RenewDialog({ pass, onClose }: { pass: PassRow | null; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ Units: number; Remark?: string }>();
  const [saving, setSaving] = useState(false);
  const start = pass ? dayjs(Math.max(Date.parse(pass.EndAt), Date.now())) : null;

  async function submit() {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const renewed = await http.post<PassRow>('/api/MonthlyPass/Renew', {
        Id: pass!.Id,
        Units: values.Units,
        Remark: values.Remark?.trim() || null,
      });
      feedback.success(
        t('garageUi.pass.sold', {
          plate: renewed.Plate,
          end: formatDate(renewed.EndAt, 'YYYY-MM-DD HH:mm'),
          amount: formatCents(renewed.AmountCents),
        }),
      );
      await queryClient.invalidateQueries({ queryKey: ['list', 'MonthlyPass'] });
      await queryClient.invalidateQueries({ queryKey: ['list', 'Vehicle'] });
      onClose();
    } finally {
      setSaving(false);
    }
  }

  return (
    <PageModal
      open={pass !== null}
      title={`${t('garage.action.Renew')} · ${pass?.Plate ?? ''}`}
      mask={DIALOG_MASK}
      keyboard={false}
      destroyOnHidden
      confirmLoading={saving}
      okText={t('list.save')}
      cancelText={t('list.cancel')}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okButtonProps={{ 'data-testid': 'renew-ok' } as never}
    >
      {pass && (
        <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('garage.field.RuleName')}>{pass.RuleName}</Descriptions.Item>
          <Descriptions.Item label={t('garage.field.EndAt')}>{formatDate(pass.EndAt)}</Descriptions.Item>
          <Descriptions.Item label={t('garageUi.pass.renewFrom')}>
            {start?.format('YYYY-MM-DD HH:mm:ss')}
          </Descriptions.Item>
        </Descriptions>
      )}
      <Form form={form} layout="vertical" preserve={false} initialValues={{ Units: 1 }}>
        <Form.Item name="Units" label={t('garage.field.Units')} rules={[antdRule((k) => t(k), required)]}>
          <InputNumber
            min={1}
            max={MAX_PASS_UNITS}
            precision={0}
            style={{ width: '100%' }}
            data-testid="renew-units"
          />
        </Form.Item>
        <Form.Item name="Remark" label={t('garage.field.Remark')}>
          <Input.TextArea rows={2} maxLength={200} showCount />
        </Form.Item>
      </Form>
    </PageModal>
  );
}
