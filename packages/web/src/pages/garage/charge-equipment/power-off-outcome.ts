import type { ForcedOutageRecordItem } from '@gatehouse/shared';
import { POWER_OFF_RESULT, formatCents } from '@gatehouse/shared';

type Translate = (key: string, values?: Record<string, unknown>) => string;

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
  if (record.Result === POWER_OFF_RESULT.cut) {
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
  if (record.Result === POWER_OFF_RESULT.sent) {
    // Accepted: the charger's stop report, whenever it comes, ends the session as forced (told live).
    return { type: 'warning', cut: false, text: t('garageUi.powerOff.awaiting', { reason }) };
  }
  const failed = record.Result === POWER_OFF_RESULT.failed;
  const key = failed ? 'failed' : 'notSent';
  return {
    type: failed ? 'error' : 'warning',
    cut: false,
    text: t(`garageUi.powerOff.${key}${session ? 'Running' : ''}`, { reason }),
  };
}
