import { DIRECTION_IN, DIRECTION_OUT } from '@gatehouse/shared';
import { sql } from 'kysely';
import type { Trx } from '../common.ts';
import type { StoredControllerRecord } from '../door-opening-record/service.ts';

/**
 * Who is inside, kept by the swipe ingest (docs/access-control.md, "Occupancy and muster"): the one writer of
 * `Occupancy`, called by the swipe records' writer (door-opening-record/service.ts) in the transaction that stores
 * the records. So a holder's row moves exactly when their swipe is stored, on whichever instance stored it, and
 * nothing is lost to a restart between the two.
 */

/** Record type 1 of a controller's ring (a card swipe); null for a swipe given without its ring place. */
const SWIPE_RECORD = 1;

/** A granted card swipe of a known holder at an in or out reader: what moves a holder in or out. */
export function movesOccupancy(r: StoredControllerRecord): boolean {
  return (
    r.Result &&
    r.CardUserId !== null &&
    (r.Direction === DIRECTION_IN || r.Direction === DIRECTION_OUT) &&
    (r.EventType === null || r.EventType === SWIPE_RECORD)
  );
}

/** The later of two swipes: by time, then by record (the later stored of two at one instant). */
const later = (a: { At: number; Id: number }, b: { At: number; Id: number }) =>
  a.At > b.At || (a.At === b.At && a.Id > b.Id);

/** Rows one statement writes: well under both databases' bound-parameter limits (11 columns a row). */
const UPSERT_ROWS = 200;

/**
 * Moves each holder of the stored records in or out. A holder's row keeps their latest swipe only: a record
 * reaching Gatehouse late (a controller collected after it was offline, a push and a poll of the same one) never
 * puts back an older direction, because the update is conditional on being later, which the database evaluates
 * against the committed row (on PostgreSQL a second transaction on the same holder waits for the first, then
 * compares with what it wrote). Holders are written in id order, so two transactions never wait on each other in
 * a cycle.
 */
export async function noteOccupancy(trx: Trx, stored: readonly StoredControllerRecord[]): Promise<void> {
  const latest = new Map<number, StoredControllerRecord>();
  for (const r of stored) {
    if (!movesOccupancy(r)) continue;
    const before = latest.get(r.CardUserId!);
    if (!before || later(r, before)) latest.set(r.CardUserId!, r);
  }
  if (latest.size === 0) return;
  const rows = [...latest.values()]
    .sort((a, b) => a.CardUserId! - b.CardUserId!)
    .map((r) => ({
      CardUserId: r.CardUserId!,
      AreaId: r.AreaId,
      Direction: r.Direction,
      LastAt: r.At,
      RecordId: r.Id,
      CardNumber: r.CardNumber,
      DeviceId: r.DeviceId,
      DeviceName: r.DeviceName,
      ChannelId: r.ChannelId,
      ChannelName: r.ChannelName,
      DoorNumber: r.DoorNumber,
    }));
  for (let i = 0; i < rows.length; i += UPSERT_ROWS)
    await trx
      .insertInto('Occupancy')
      .values(rows.slice(i, i + UPSERT_ROWS))
      .onConflict((oc) =>
        oc
          .column('CardUserId')
          .doUpdateSet((eb) => ({
            AreaId: eb.ref('excluded.AreaId'),
            Direction: eb.ref('excluded.Direction'),
            LastAt: eb.ref('excluded.LastAt'),
            RecordId: eb.ref('excluded.RecordId'),
            CardNumber: eb.ref('excluded.CardNumber'),
            DeviceId: eb.ref('excluded.DeviceId'),
            DeviceName: eb.ref('excluded.DeviceName'),
            ChannelId: eb.ref('excluded.ChannelId'),
            ChannelName: eb.ref('excluded.ChannelName'),
            DoorNumber: eb.ref('excluded.DoorNumber'),
          }))
          .where((eb) =>
            eb.or([
              eb('Occupancy.LastAt', '<', eb.ref('excluded.LastAt')),
              eb.and([
                eb('Occupancy.LastAt', '=', eb.ref('excluded.LastAt')),
                eb('Occupancy.RecordId', '<', eb.ref('excluded.RecordId')),
              ]),
            ]),
          ),
      )
      .execute();
}

/**
 * Fills an area's rows from its swipe records since `since` (each holder's latest granted card swipe at an in or
 * out reader), keeping any row that is already later: for records written around the ingest, as the demo's seeder
 * writes its history in bulk. The same rule as the ingest, read from the records instead of a batch.
 */
export async function occupancyFromRecords(trx: Trx, areaId: number, since: number): Promise<void> {
  await sql`
    insert into "Occupancy" ("CardUserId", "AreaId", "Direction", "LastAt", "RecordId", "CardNumber", "DeviceId",
      "DeviceName", "ChannelId", "ChannelName", "DoorNumber")
    select "CardUserId", "AreaId", "Direction", "At", "Id", "CardNumber", "DeviceId", "DeviceName", "ChannelId",
      "ChannelName", "DoorNumber"
    from (
      select r.*, row_number() over (partition by r."CardUserId" order by r."At" desc, r."Id" desc) as "Nth"
      from "DoorOpeningRecord" r
      where r."AreaId" = ${areaId} and r."At" >= ${since} and r."Result" = 1 and r."CardUserId" is not null
        and r."Direction" in (${DIRECTION_IN}, ${DIRECTION_OUT}) and (r."EventType" is null or r."EventType" = ${SWIPE_RECORD})
    ) latest
    where "Nth" = 1
    on conflict ("CardUserId") do update set "AreaId" = excluded."AreaId", "Direction" = excluded."Direction",
      "LastAt" = excluded."LastAt", "RecordId" = excluded."RecordId", "CardNumber" = excluded."CardNumber",
      "DeviceId" = excluded."DeviceId", "DeviceName" = excluded."DeviceName", "ChannelId" = excluded."ChannelId",
      "ChannelName" = excluded."ChannelName", "DoorNumber" = excluded."DoorNumber"
    where "Occupancy"."LastAt" < excluded."LastAt"
      or ("Occupancy"."LastAt" = excluded."LastAt" and "Occupancy"."RecordId" < excluded."RecordId")`.execute(
    trx,
  );
}
