import {
  DEFAULT_SITE_TIME_ZONE,
  FLOAT_CHARGE_MAX_W,
  foldReading,
  placeReading,
  startDigest,
  type MeterDigest,
  type TimeOfDayPeriod,
} from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { areaTimeZone } from '../common/index.ts';
import { tariffOf } from '../common/pricing.ts';
import type { TariffColumns, TariffDimensionColumns } from '../tables.ts';

/**
 * A running session's meter as Gatehouse keeps it (docs/garage.md, "The stored meter"): each reading a device
 * sends is folded into the session's digest (the shared engine's MeterDigest: first and last reading, the
 * sustained power so far, the runs of the last five minutes, the energy per time-of-day period of its order),
 * so the live estimate and the final price read the same few hundred bytes however long the session runs,
 * and since when its battery has been full (the idle fee counts from there).
 */

/** A reading of a running session as its device sent it. */
export interface SessionReading {
  /** The energy register (Wh). */
  registerWh: number;
  /** The power then (W), when the device meters it. */
  powerW?: number | undefined;
  /** The reading's own instant (the device's clock, as far as it is believed); absent: now. */
  at?: number | undefined;
}

/** The session's columns a reading changes, as they stand. */
export interface MeterColumns {
  StartAt: number;
  EnergyWh: number;
  MeterStartWh: number | null;
  MeterDigest: string | null;
  FullAt: number | null;
}

type OrderTerms = TariffColumns & Partial<TariffDimensionColumns>;

/**
 * The session's columns with one more reading:
 * - EnergyWh: register − meterStart, never lower than before (a late reading changes nothing);
 * - MeterDigest: the reading folded in at its instant (a reading dated before the start counts at the start;
 *   one adding nothing is left out: shared `placeReading`), against the order's time-of-day periods in the
 *   area's zone; only for a session whose device gave its meterStart;
 * - FullAt: the battery is full from the first reading below float-charge power (FLOAT_CHARGE_MAX_W, where
 *   the socket shows "float charge") and no longer once a reading draws more; a reading without power leaves it.
 */
async function withReading(
  k: Kysely<Database>,
  areaId: number,
  session: MeterColumns,
  order: OrderTerms | undefined,
  reading: SessionReading,
  now: number,
): Promise<Pick<MeterColumns, 'EnergyWh' | 'MeterDigest' | 'FullAt'>> {
  const at = Math.max(reading.at ?? now, session.StartAt);
  const energyWh = Math.max(session.EnergyWh, reading.registerWh - (session.MeterStartWh ?? 0));
  let digestText = session.MeterDigest;
  if (session.MeterStartWh !== null && Number.isSafeInteger(reading.registerWh) && reading.registerWh >= 0) {
    const digest: MeterDigest = digestText
      ? (JSON.parse(digestText) as MeterDigest)
      : startDigest({ At: session.StartAt, EnergyWh: session.MeterStartWh });
    const next = placeReading(digest, at, reading.registerWh);
    if (next) {
      const periods: readonly TimeOfDayPeriod[] | null = order ? (tariffOf(order).TimeOfDay ?? null) : null;
      const zone = periods ? await areaTimeZone(k, areaId) : DEFAULT_SITE_TIME_ZONE;
      digestText = JSON.stringify(foldReading(digest, next, { TimeOfDay: periods, TimeZone: zone }));
    }
  }
  const fullAt =
    reading.powerW === undefined
      ? session.FullAt
      : reading.powerW < FLOAT_CHARGE_MAX_W
        ? (session.FullAt ?? at)
        : null;
  return { EnergyWh: energyWh, MeterDigest: digestText, FullAt: fullAt };
}

/**
 * Stores one reading of a running session (its energy, meter digest and "full since"), in one conditional
 * UPDATE on the columns as read: a reading racing another for the same session (two instances for a moment)
 * reads them again and folds onto the other's, so neither is lost. Returns the columns as stored, or undefined
 * when the session is no longer running.
 */
export async function storeSessionReading(
  ctx: AreaContext,
  recordId: number,
  order: OrderTerms | undefined,
  reading: SessionReading,
): Promise<MeterColumns | undefined> {
  const k = ctx.db.kysely;
  for (let attempt = 0; attempt < 5; attempt++) {
    const session = await k
      .selectFrom('ChargeRecord')
      .select(['StartAt', 'EnergyWh', 'MeterStartWh', 'MeterDigest', 'FullAt'])
      .where('Id', '=', recordId)
      .where('EndAt', 'is', null)
      .executeTakeFirst();
    if (!session) return undefined;
    const next = await withReading(k, ctx.areaId, session, order, reading, ctx.clock.now());
    if (
      next.EnergyWh === session.EnergyWh &&
      next.MeterDigest === session.MeterDigest &&
      next.FullAt === session.FullAt
    )
      return session;
    const stored = await k
      .updateTable('ChargeRecord')
      .set(next)
      .where('Id', '=', recordId)
      .where('EndAt', 'is', null)
      .where('EnergyWh', '=', session.EnergyWh)
      .where((eb) =>
        session.MeterDigest === null
          ? eb('MeterDigest', 'is', null)
          : eb('MeterDigest', '=', session.MeterDigest),
      )
      .executeTakeFirst();
    if (Number(stored.numUpdatedRows) === 1) return { ...session, ...next };
  }
  // Still racing after five reads: this reading is left out (the next one folds the register in).
  return undefined;
}
