import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { STOP_REASON, chargeStopReason, findEnumItem } from '@gatehouse/shared';
import { EnumCell } from '../../../components/list-page/index.ts';

/**
 * The stop reasons that are a safety stop (issue 30, "the user told"): an operator's forced power-off, and the
 * three Gatehouse decides itself: the host's heat alarm, the zone's power budget, the zone's emergency stop.
 */
const SAFETY_STOPS: ReadonlySet<number> = new Set([
  STOP_REASON.forcedPowerOff,
  STOP_REASON.overTemperature,
  STOP_REASON.zoneBudget,
  STOP_REASON.emergencyStop,
]);

export const isSafetyStop = (reason: number | null): reason is number =>
  reason !== null && SAFETY_STOPS.has(reason);

/** A session's stop reason in the list: a safety stop as a red tag, any other as its label. */
export function StopReasonTag({ value }: { value: number | null }) {
  const { t } = useTranslation();
  if (!isSafetyStop(value)) return <EnumCell def={chargeStopReason} value={value} />;
  return (
    <Tag color="red" data-testid="stop-safety" data-stop-reason={value}>
      {t(findEnumItem(chargeStopReason, value)!.key as never)}
    </Tag>
  );
}

/**
 * The line a card's history shows of how a session ended: for a safety stop, the reason and what it means for
 * the rider (why the power was cut, and what must happen before charging there again), the words the site's own
 * channel tells the holder from `charging.session.ended` (docs/integrations.md); any other end as its reason.
 */
export function StopReasonLine({ value }: { value: number | null }) {
  const { t } = useTranslation();
  if (!isSafetyStop(value)) return <EnumCell def={chargeStopReason} value={value} />;
  return (
    <Space size={6} align="start" data-testid="stop-line" data-stop-reason={value}>
      <Tag color="red">{t('garageUi.record.safetyStop')}</Tag>
      <Typography.Text>
        <Typography.Text strong>{t(findEnumItem(chargeStopReason, value)!.key as never)}</Typography.Text>
        {t('garageUi.record.colon')}
        {t(`garageUi.record.why.${value}` as never)}
      </Typography.Text>
    </Space>
  );
}
