import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { SETTLED_PAYMENT_STATES } from '../common/payments.ts';

/**
 * Expired sessions and their orders leave here, the one writer of both tables; the garage's retention
 * (modules/garage/retention.ts) picks the step's sessions and the cutoff, and calls this in its step's
 * transaction.
 *
 * Among `ids` (sessions started before `cutoff`), a session and its order go together, never one without the
 * other, when the session also ended before the cutoff, its order is settled and its payment has come to rest
 * (SETTLED_PAYMENT_STATES), and no power-off record still points at either. Returns the sessions removed.
 */
export async function deleteExpiredSessions(
  trx: Kysely<Database>,
  ids: number[],
  cutoff: number,
): Promise<number> {
  const keptByPowerOff = (column: 'ChargeRecordId' | 'ChargeOrderId', ref: string) =>
    trx
      .selectFrom('ForcedOutageRecord')
      .select('ForcedOutageRecord.Id')
      .whereRef(`ForcedOutageRecord.${column}`, '=', sql.ref(ref));
  // The sessions that may go: among the step's, ended before the cutoff and no power-off record on them.
  const endedSessions = trx
    .selectFrom('ChargeRecord')
    .select('ChargeRecord.Id')
    .where('ChargeRecord.Id', 'in', ids)
    .where('ChargeRecord.EndAt', '<', cutoff)
    .where((eb) => eb.not(eb.exists(keptByPowerOff('ChargeRecordId', 'ChargeRecord.Id'))));
  // Their orders first (an order points at its session), each only when settled and at rest.
  const orders = await trx
    .deleteFrom('ChargeOrder')
    .where('ChargeOrder.ChargeRecordId', 'in', endedSessions)
    .where('ChargeOrder.SettledAt', 'is not', null)
    .where('ChargeOrder.PaymentState', 'in', SETTLED_PAYMENT_STATES)
    .where((eb) => eb.not(eb.exists(keptByPowerOff('ChargeOrderId', 'ChargeOrder.Id'))))
    .returning('ChargeOrder.ChargeRecordId')
    .execute();
  // Then the sessions left without an order: those whose order just went, and any that never had one.
  const sessions = await trx
    .deleteFrom('ChargeRecord')
    .where('ChargeRecord.Id', 'in', endedSessions)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('ChargeOrder')
            .select('ChargeOrder.Id')
            .whereRef('ChargeOrder.ChargeRecordId', '=', 'ChargeRecord.Id'),
        ),
      ),
    )
    .returning('ChargeRecord.Id')
    .execute();
  // Never an order without its session: a session that could not follow its order undoes the step.
  const gone = new Set(sessions.map((s) => s.Id));
  if (orders.some((o) => !gone.has(o.ChargeRecordId)))
    throw new Error('charge retention: an order removed without its session; step undone');
  return sessions.length;
}
