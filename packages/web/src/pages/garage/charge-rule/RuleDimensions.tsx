import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { yuan, type ChargeRuleItem } from '@gatehouse/shared';

/**
 * A rule's tariff dimensions as its row's detail says them: the power bands and time-of-day prices with their
 * prices, the idle fee with its grace and the service fee; '-' when it has none.
 */
export function RuleDimensions({ rule }: { rule: ChargeRuleItem }) {
  const { t } = useTranslation();
  const parts: [string, string][] = [];
  if (rule.PowerBands?.length)
    parts.push([
      t('garage.field.PowerBands'),
      rule.PowerBands.map((b) => `≤ ${b.UpToW} W ${yuan(b.PriceCents)} / ${t('unit.hour')}`).join(' · '),
    ]);
  if (rule.TimeOfDay?.length)
    parts.push([
      t('garage.field.TimeOfDay'),
      rule.TimeOfDay.map((p) => `${p.From}–${p.To} ${yuan(p.PriceCentsPerKWh)} / ${t('unit.kWh')}`).join(
        ' · ',
      ),
    ]);
  if (rule.IdleFeeCentsPerHour !== null)
    parts.push([
      t('garage.field.IdleFee'),
      `${yuan(rule.IdleFeeCentsPerHour)} / ${t('unit.hour')} (${t('garage.field.IdleGraceMinutes')} ${rule.IdleGraceMinutes ?? 0})`,
    ]);
  if (rule.ServiceFeeCents !== null) parts.push([t('garage.field.ServiceFee'), yuan(rule.ServiceFeeCents)]);
  if (parts.length === 0) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Space direction="vertical" size={2} data-testid="rule-dimensions">
      {parts.map(([label, text]) => (
        <span key={label}>
          <Typography.Text type="secondary">{label}: </Typography.Text>
          {text}
        </span>
      ))}
    </Space>
  );
}
