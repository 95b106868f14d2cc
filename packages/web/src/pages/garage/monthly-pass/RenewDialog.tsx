import { Descriptions, Form, Input, InputNumber } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MonthlyPassApi, MAX_PASS_UNITS, antdRule, formatCents, required } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { FormModal } from '../../../components/FormModal.tsx';
import { formatSiteTime, toSitePicker } from '../../../core/site-time.ts';
import { closeDialog, useGarageDialogs } from '../dialogs.ts';

/** Renewal sells the next pass under the same rule, from where this one ends (or now, once it has ended). */
export function RenewDialog() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const pass = useGarageDialogs((s) => s.renewPass);
  const onClose = () => closeDialog('renewPass');
  const [form] = Form.useForm<{ Units: number; Remark?: string }>();
  const start = pass ? toSitePicker(Math.max(Date.parse(pass.EndAt), Date.now())) : null;

  async function submit(values: { Units: number; Remark?: string }) {
    const renewed = await call(MonthlyPassApi.renew, {
      body: { Id: pass!.Id, Units: values.Units, Remark: values.Remark?.trim() || null },
    });
    feedback.success(
      t('garageUi.pass.sold', {
        plate: renewed.Plate,
        end: formatSiteTime(renewed.EndAt, 'YYYY-MM-DD HH:mm'),
        amount: formatCents(renewed.AmountCents),
      }),
    );
    await queryClient.invalidateQueries({ queryKey: ['list', 'MonthlyPass'] });
    await queryClient.invalidateQueries({ queryKey: ['list', 'Vehicle'] });
    onClose();
  }

  return (
    <FormModal
      form={form}
      open={pass !== null}
      title={`${t('garage.action.Renew')} · ${pass?.Plate ?? ''}`}
      keyboard={false}
      destroyOnHidden
      okText={t('list.save')}
      onCancel={onClose}
      onSubmit={submit}
      okTestId="renew-ok"
    >
      {pass && (
        <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('garage.field.RuleName')}>{pass.RuleName}</Descriptions.Item>
          <Descriptions.Item label={t('garage.field.EndAt')}>{formatSiteTime(pass.EndAt)}</Descriptions.Item>
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
    </FormModal>
  );
}
