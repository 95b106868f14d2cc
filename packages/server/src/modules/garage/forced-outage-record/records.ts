import { POWER_OFF_RESULT } from '@gatehouse/shared';
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { ForcedOutageRecordTable } from '../tables.ts';

/**
 * The one writer of ForcedOutageRecord (docs/chargers.md, "Forced power-off"): the request as the operator
 * made it, the charger's answer to it, and the confirmation its stop report brings. A record only moves
 * forward: once "power cut", nothing writes over it.
 */

type Trx = Kysely<Database>;

/** The request, "not sent" until the charger answered (true if the process stops before it does). */
export async function insertPowerOffRequest(
  trx: Trx,
  values: Omit<Insertable<ForcedOutageRecordTable>, 'Result' | 'ResultReason'>,
): Promise<number> {
  const record = await trx
    .insertInto('ForcedOutageRecord')
    .values({ ...values, Result: POWER_OFF_RESULT.notSent, ResultReason: 'sending' })
    .returning('Id')
    .executeTakeFirstOrThrow();
  return record.Id;
}

/** The charger's answer; a stop report that arrived first already made the record "power cut": that stays. */
export async function powerOffAnswered(
  trx: Trx,
  recordId: number,
  result: number,
  reason: string | null,
): Promise<void> {
  await trx
    .updateTable('ForcedOutageRecord')
    .set({ Result: result, ResultReason: reason })
    .where('Id', '=', recordId)
    .where('Result', '!=', POWER_OFF_RESULT.cut)
    .execute();
}

/**
 * The charger's stop report ended a session a power-off was cutting: every record still waiting on it (sent
 * and not confirmed, or still being sent) becomes "power cut". Returns those records.
 */
export async function powerOffConfirmed(trx: Trx, sessionId: number): Promise<number[]> {
  const waiting = await trx
    .selectFrom('ForcedOutageRecord')
    .select('Id')
    .where('ChargeRecordId', '=', sessionId)
    .where('Result', '!=', POWER_OFF_RESULT.cut)
    .where('ResultReason', 'in', ['sending', 'noConfirmation'])
    .execute();
  if (waiting.length === 0) return [];
  const ids = waiting.map((r) => r.Id);
  await trx
    .updateTable('ForcedOutageRecord')
    .set({ Result: POWER_OFF_RESULT.cut, ResultReason: null })
    .where('Id', 'in', ids)
    .execute();
  return ids;
}

/**
 * Retention's removal of expired power-off records (modules/garage/retention.ts picks `ids`, records made
 * before its cutoff, and calls this in its step's transaction): each goes unless the session it cut is still
 * running (its stop report still turns a waiting record into "power cut"). Returns how many went.
 */
export async function deleteExpiredPowerOffs(trx: Trx, ids: number[]): Promise<number> {
  const gone = await trx
    .deleteFrom('ForcedOutageRecord')
    .where('ForcedOutageRecord.Id', 'in', ids)
    .where((eb) =>
      eb.or([
        eb('ForcedOutageRecord.ChargeRecordId', 'is', null),
        eb.exists(
          eb
            .selectFrom('ChargeRecord')
            .select('ChargeRecord.Id')
            .whereRef('ChargeRecord.Id', '=', 'ForcedOutageRecord.ChargeRecordId')
            .where('ChargeRecord.EndAt', 'is not', null),
        ),
      ]),
    )
    .returning('ForcedOutageRecord.Id')
    .execute();
  return gone.length;
}
