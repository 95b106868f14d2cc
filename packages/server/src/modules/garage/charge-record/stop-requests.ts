import { STOP_REASON } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { audit } from '../../../platform/audit.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { socketSessions } from './service.ts';

/**
 * The stop Gatehouse asks a charger for, recorded on the session before it is sent (StopRequest): claimed for a
 * forced power-off or a safety state (heat, emergency stop, zone budget), released when the charger refused it
 * or never heard it. The session itself ends only by settlement.ts, when the charger's stop report comes.
 */

type Trx = Kysely<Database>;

/** A power-off still waiting for its charger this long may be sent again (a lost answer, a restart). */
export const POWER_OFF_PENDING_MS = 2 * 60_000;

/**
 * The session a forced power-off ends, claimed for it (StopRequest = forced power-off, a conditional UPDATE):
 * the named one, which must still run on this socket (404, 409), or the socket's running session if any.
 * Someone else already cutting it: a named session is a conflict (409); an unnamed one is recorded without
 * it (null). A claim older than POWER_OFF_PENDING_MS may be taken again.
 */
export async function claimPowerOffStop(
  trx: Trx,
  socketId: number,
  namedId: number | undefined,
  now: number,
): Promise<number | null> {
  const session = await socketSessions(trx, {
    socketIds: [socketId],
    ...(namedId === undefined ? {} : { recordId: namedId, open: false }),
  })
    .select(['ChargeRecord.Id', 'ChargeRecord.EndAt'])
    .executeTakeFirst();
  if (namedId !== undefined) {
    if (!session) throw notFound();
    if (session.EndAt !== null) throw new AppError(409, 'garage.error.sessionEnded');
  }
  if (!session) return null;
  const claimed = await trx
    .updateTable('ChargeRecord')
    .set({ StopRequest: STOP_REASON.forcedPowerOff, StopRequestedAt: now })
    .where('Id', '=', session.Id)
    .where('EndAt', 'is', null)
    .where((eb) =>
      eb.or([
        eb('StopRequest', 'is', null),
        eb('StopRequest', '!=', STOP_REASON.forcedPowerOff),
        eb('StopRequestedAt', '<', now - POWER_OFF_PENDING_MS),
      ]),
    )
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 1) return session.Id;
  if (namedId !== undefined) throw new AppError(409, 'garage.error.powerOffPending');
  return null;
}

/**
 * Gatehouse asks the charger to stop a session for a reason of its own (a safety rule): recorded on the
 * session (its StopTransaction then ends it with this reason) and audited with the caller. False when the
 * session is not running or a stop is already asked for.
 */
export async function requestSessionStop(
  ctx: AreaContext,
  recordId: number,
  stopReason: number,
  why: Record<string, unknown>,
): Promise<boolean> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('ChargeRecord')
      .set({ StopRequest: stopReason, StopRequestedAt: ctx.clock.now() })
      .where('Id', '=', recordId)
      .where('EndAt', 'is', null)
      .where('StopRequest', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    const after = { StopReason: stopReason, ...why };
    await audit(
      ctx,
      { action: 'safetyStop', entity: 'ChargeRecord', entityId: recordId, before: null, after },
      trx,
    );
    return true;
  });
}

/**
 * Drops a stop request the charger refused or never received, so a later one can be made; with `reason`,
 * only a request for that reason (a power-off releases its own claim, not a safety rule's).
 */
export async function releaseSessionStop(trx: Trx, recordId: number, reason?: number): Promise<void> {
  let update = trx
    .updateTable('ChargeRecord')
    .set({ StopRequest: null, StopRequestedAt: null })
    .where('Id', '=', recordId)
    .where('EndAt', 'is', null);
  if (reason !== undefined) update = update.where('StopRequest', '=', reason);
  await update.execute();
}
