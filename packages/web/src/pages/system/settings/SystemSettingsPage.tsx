import { BUDGET_GRACE_MAX_S, BUDGET_GRACE_MIN_S, SettingsApi, type SettingsValues } from '@gatehouse/shared';
import { useEffect } from 'react';
import { Button, Card, Form, Input, InputNumber, Spin } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { antdRule, url } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';

type Settings = SettingsValues;

/** Bounds as the server checks them (PUT /api/Settings). */
const NUMBERS: { name: keyof Settings; min: number; max: number }[] = [
  { name: 'SessionTtlSeconds', min: 300, max: 30 * 86_400 },
  { name: 'LoginMaxFailures', min: 3, max: 50 },
  { name: 'LoginLockMinutes', min: 1, max: 1440 },
  { name: 'ExportRetentionDays', min: 1, max: 365 },
  { name: 'SwipeRetentionMonths', min: 0, max: 240 },
  { name: 'ChargeRecordRetentionMonths', min: 0, max: 240 },
  { name: 'PowerOffRetentionMonths', min: 0, max: 240 },
  { name: 'ParkOrderRetentionMonths', min: 0, max: 240 },
  // How long a zone may stay above its power budget before Gatehouse acts (docs/garage.md).
  { name: 'BudgetGraceSeconds', min: BUDGET_GRACE_MIN_S, max: BUDGET_GRACE_MAX_S },
];

/** System settings: effective at once for every user, without a restart. */
export default function SystemSettingsPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Settings>();
  const settings = useQuery({ queryKey: ['settings'], queryFn: () => call(SettingsApi.get) });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);
  const save = useMutation({
    mutationFn: (values: Settings) => call(SettingsApi.update, { body: values }),
    onSuccess: () => feedback.success(t('adminUi.settingsSaved')),
  });

  if (settings.isLoading) return <Spin />;
  return (
    <Card title={t('route.systemSettings')} style={{ maxWidth: 720 }}>
      <Form<Settings>
        form={form}
        layout="vertical"
        onFinish={(values) => save.mutate(values)}
        data-testid="settings-form"
      >
        <Form.Item
          name="SiteTitle"
          label={t('admin.field.SiteTitle')}
          extra={t('adminUi.siteTitleHint')}
          rules={[{ max: 50, message: t('validation.tooLong', { max: 50 }) }]}
        >
          <Input data-testid="setting-SiteTitle" />
        </Form.Item>
        <Form.Item
          name="ImageBaseUrl"
          label={t('admin.field.ImageBaseUrl')}
          rules={[antdRule((k) => t(k), url)]}
        >
          <Input placeholder="https://" data-testid="setting-ImageBaseUrl" />
        </Form.Item>
        {NUMBERS.map((n) => (
          <Form.Item
            key={n.name}
            name={n.name}
            label={t(`admin.field.${n.name}`)}
            extra={t('adminUi.between', { min: n.min, max: n.max })}
          >
            <InputNumber
              min={n.min}
              max={n.max}
              precision={0}
              style={{ width: 220 }}
              data-testid={`setting-${n.name}`}
            />
          </Form.Item>
        ))}
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="settings-save">
          {t('list.save')}
        </Button>
      </Form>
    </Card>
  );
}
