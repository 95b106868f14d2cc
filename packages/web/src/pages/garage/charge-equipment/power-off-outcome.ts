import type { ForcedOutageRecordItem } from '@gatehouse/shared';
import { formatCents } from '@gatehouse/shared';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** forcedOutageResult: what the device did with a forced power-off (docs/chargers.md, "Forced power-off"). */
export const POWER_OFF_NOT_SENT = 0;
export const POWER_OFF_CUT = 1;
export const POWER_OFF_FAILED = 2;

export interface PowerOffOutcome {
  /** The message type: success only when the device confirmed the cut. */
  type: 'success' | 'warning' | 'error';
  /** Whether the power is known to be off (the session, if any, ended and its order was settled). */
  cut: boolean;
  text: string;
}

/**
 * What the operator is told after a forced power-off, from the record the server wrote (issue 15, "Honest
 * states"): "power cut" only when the charger confirmed it; otherwise what happened (not sent, refused, no
 * answer, accepted but not confirmed yet) and that the session runs on with its order unsettled.
 */
export function powerOffOutcome(
  record: Pick<
    ForcedOutageRecordItem,
    'Result' | 'ResultReason' | 'ResultText' | 'OrderNo' | 'AmountCents' | 'ChargeRecordId'
  >,
  t: Translate,
): PowerOffOutcome {
  const reason = record.ResultText ?? record.ResultReason ?? '';
  const session = record.ChargeRecordId !== null;
  if (record.Result === POWER_OFF_CUT) {
    return {
      type: 'success',
      cut: true,
      text:
        record.OrderNo !== null
          ? t('garageUi.powerOff.doneWithOrder', {
              order: record.OrderNo,
              amount: formatCents(record.AmountCents ?? 0),
            })
          : t('garageUi.powerOff.done'),
    };
  }
  if (record.Result === POWER_OFF_FAILED && record.ResultReason === 'noConfirmation') {
    // Accepted: the charger's stop report, whenever it comes, still ends the session as forced.
    return { type: 'warning', cut: false, text: t('garageUi.powerOff.awaiting', { reason }) };
  }
  const key = record.Result === POWER_OFF_FAILED ? 'failed' : 'notSent';
  return {
    type: record.Result === POWER_OFF_FAILED ? 'error' : 'warning',
    cut: false,
    text: t(`garageUi.powerOff.${key}${session ? 'Running' : ''}`, { reason }),
  };
}
