import type { MusterPoint } from '@gatehouse/shared';
import type { Trx } from '../common.ts';
import type { StoredControllerRecord } from '../door-opening-record/service.ts';
import { MUSTER_EARLY_MS, musterById, personQuery, toPersonItem } from './items.ts';
import { emitSafe } from './service.ts';

/**
 * A granted swipe at a muster point marks its holder safe on the roll call under way in its area
 * (docs/access-control.md, "Occupancy and muster"), in the transaction that stores the swipe record
 * (door-opening-record/service.ts calls it): the mark exists exactly when the record does, whichever instance
 * stored it. Only a swipe made since the roll call started counts, or in the moments before (MUSTER_EARLY_MS: a
 * record collected late from longer before says nothing about now); a person already safe stays as first found.
 */

/** Record type 1 of a controller's ring (a card swipe); null for a swipe given without its ring place. */
const SWIPE_RECORD = 1;

const atMusterPoint = (r: StoredControllerRecord) =>
  r.Result &&
  r.CardUserId !== null &&
  r.ChannelId !== null &&
  (r.EventType === null || r.EventType === SWIPE_RECORD);

/**
 * Marks the holders of the stored records who swiped at a muster point of their area's roll call under way. Each
 * record that marked someone carries the roll call with its counts after the batch (`Muster`), for the gateway to
 * tell the area's browsers; each person marked is written as an outward event.
 */
export async function markSafeBySwipes(trx: Trx, stored: readonly StoredControllerRecord[]): Promise<void> {
  const swipes = stored.filter(atMusterPoint);
  if (swipes.length === 0) return;
  const areas = [...new Set(swipes.map((r) => r.AreaId))];
  const musters = await trx
    .selectFrom('Muster')
    .select(['Id', 'AreaId', 'Points', 'StartedAt'])
    .where('AreaId', 'in', areas)
    .where('EndedAt', 'is', null)
    .execute();
  for (const muster of musters) {
    const points = new Set((JSON.parse(muster.Points) as MusterPoint[]).map((p) => p.ChannelId));
    const first = new Map<number, StoredControllerRecord>();
    for (const r of swipes) {
      const since = Number(muster.StartedAt) - MUSTER_EARLY_MS;
      if (r.AreaId !== muster.AreaId || !points.has(r.ChannelId!) || r.At < since) continue;
      const seen = first.get(r.CardUserId!);
      if (!seen || r.At < seen.At) first.set(r.CardUserId!, r);
    }
    if (first.size === 0) continue;
    const marked: number[] = [];
    const marking: StoredControllerRecord[] = [];
    // In holder order, so two transactions never wait on each other's marks in a cycle.
    for (const r of [...first.values()].sort((a, b) => a.CardUserId! - b.CardUserId!)) {
      const row = await trx
        .updateTable('MusterPerson')
        .set({ SafeAt: r.At, SafeHow: 'swipe', SafeBy: `${r.DeviceName} · ${r.ChannelName ?? r.DoorNumber}` })
        .where('MusterId', '=', muster.Id)
        .where('CardUserId', '=', r.CardUserId!)
        .where('SafeAt', 'is', null)
        .returning('Id')
        .executeTakeFirst();
      if (!row) continue;
      marked.push(row.Id);
      marking.push(r);
    }
    if (marked.length === 0) continue;
    const item = (await musterById(trx, muster.Id))!;
    const people = (await personQuery(trx).where('MusterPerson.Id', 'in', marked).execute()).map(
      toPersonItem,
    );
    await emitSafe(trx, item, people, Math.max(...people.map((p) => Date.parse(p.SafeAt!))));
    for (const r of marking) r.Muster = item;
  }
}
