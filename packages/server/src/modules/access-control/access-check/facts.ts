import { sql } from 'kysely';
import { AppError } from '../../../platform/errors.ts';
import { ISSUE } from '../card-user-link-channel/lifecycle.ts';
import type { Trx } from '../common.ts';
import { numberOrNull } from '../../../platform/instants.ts';

/**
 * What the access check reads from the database (docs/access-control.md, "Access check"): the door and its
 * controller, the card and its holder (a visitor pass's too), the holder's authorisations on that door, the area's
 * lockdown at the time asked, and the card's last passage and refusal as the controller reported them.
 */

/** Authorisations a controller honours (a third-party gate's are 0: no issue needed). */
export const LIVE_GRANTS: readonly number[] = [
  ISSUE.noIssueNeeded,
  ISSUE.pendingIssue,
  ISSUE.pendingUpdate,
  ISSUE.issueSucceeded,
];

/** The channel of the area and its controller; 404 for a channel of another area. */
export async function doorOf(db: Trx, areaId: number, channelId: number) {
  const door = await db
    .selectFrom('AccessControlChannel as C')
    .innerJoin('AccessControlDevice as D', 'D.Id', 'C.DeviceId')
    .select([
      'C.Id',
      'C.Name',
      'C.DoorNumber',
      'C.Direction',
      'C.DeviceId',
      'D.Name as DeviceName',
      'D.SerialNumber',
      'D.Protocol',
      'D.Type',
      'D.Disabled',
      'D.Interlock',
      'D.AntiPassback',
    ])
    .where('C.Id', '=', channelId)
    .where('C.AreaId', '=', areaId)
    .where('D.AreaId', '=', areaId)
    .executeTakeFirst();
  if (!door) throw new AppError(404, 'accessControl.error.channelMissing');
  return {
    ...door,
    Disabled: Number(door.Disabled) === 1,
    Interlock: Number(door.Interlock),
    AntiPassback: Number(door.AntiPassback),
  };
}
export type CheckedDoor = Awaited<ReturnType<typeof doorOf>>;

/** The card of the area with its holder and, for a visitor pass's card, the pass. */
export async function cardOf(db: Trx, areaId: number, cardNumber: string) {
  const row = await db
    .selectFrom('Card')
    .leftJoin('CardUser as U', 'U.Id', 'Card.CardUserId')
    .leftJoin('VisitorPass as P', 'P.CardUserId', 'Card.CardUserId')
    .select([
      'Card.Id',
      'Card.CardType',
      'Card.CardUserId',
      'U.Name as HolderName',
      'U.Disabled',
      'U.ValidFrom',
      'U.ValidTo',
      'P.Id as PassId',
      'P.VisitorName',
      'P.HostName',
      'P.State as PassState',
      'P.ValidTo as PassEnd',
    ])
    .where('Card.AreaId', '=', areaId)
    .where('Card.CardNumber', '=', cardNumber)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    Disabled: Number(row.Disabled) === 1,
    ValidFrom: numberOrNull(row.ValidFrom),
    ValidTo: numberOrNull(row.ValidTo),
    PassState: numberOrNull(row.PassState),
    PassEnd: numberOrNull(row.PassEnd),
  };
}
export type CheckedCard = NonNullable<Awaited<ReturnType<typeof cardOf>>>;

/** The holder's authorisations on the door (any of its readers: the controller opens the door to either), newest last. */
export async function grantsAt(db: Trx, holderId: number, door: CheckedDoor) {
  const rows = await db
    .selectFrom('CardUserLinkChannel as L')
    .innerJoin('AccessControlChannel as C', 'C.Id', 'L.ChannelId')
    .leftJoin('TimeProfile as T', 'T.Id', 'L.TimeProfileId')
    .select([
      'L.Id',
      'L.ChannelId',
      'C.Name as ChannelName',
      'L.IssueStatus',
      'L.Revoked',
      'L.ValidFrom',
      'L.ValidTo',
      'L.TimeProfileId',
      'T.Name as ProfileName',
      'L.SyncError',
    ])
    .where('L.CardUserId', '=', holderId)
    .where('L.DeviceId', '=', door.DeviceId)
    .where('C.DoorNumber', '=', door.DoorNumber)
    .orderBy('L.Id')
    .execute();
  return rows.map((r) => ({
    ...r,
    Revoked: Number(r.Revoked) === 1,
    ValidFrom: numberOrNull(r.ValidFrom),
    ValidTo: numberOrNull(r.ValidTo),
  }));
}
export type CheckedGrant = Awaited<ReturnType<typeof grantsAt>>[number];

/** The area's lockdown or evacuation in force at that instant, if any. */
export async function lockdownAt(db: Trx, areaId: number, at: number) {
  return db
    .selectFrom('AreaLockdown')
    .select(['Id', 'Mode', 'StartedAt', 'Reason'])
    .where('AreaId', '=', areaId)
    .where('StartedAt', '<=', at)
    .where((eb) => eb.or([eb('ReleasedAt', 'is', null), eb('ReleasedAt', '>', at)]))
    .orderBy('Id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** A swipe of the card as stored (the controller's report), the newest matching. */
async function lastSwipe(
  db: Trx,
  areaId: number,
  card: string,
  where: { deviceId: number; door?: number; granted: boolean; before?: number },
) {
  let query = db
    .selectFrom('DoorOpeningRecord')
    .select(['At', 'ChannelName', 'DoorNumber', 'Direction', 'Reason', 'EventReason'])
    .where('AreaId', '=', areaId)
    .where('CardNumber', '=', card)
    .where('DeviceId', '=', where.deviceId)
    .where('Result', '=', where.granted ? 1 : 0)
    // Card swipes only: a door event or alarm has no card (its record type is 2 or 3).
    .where(sql<boolean>`coalesce("EventType", 1) = 1`);
  if (where.door !== undefined) query = query.where('DoorNumber', '=', where.door);
  if (where.before !== undefined) query = query.where('At', '<=', where.before);
  const row = await query.orderBy('At', 'desc').orderBy('Id', 'desc').limit(1).executeTakeFirst();
  return (
    row && {
      ...row,
      At: Number(row.At),
      EventReason: numberOrNull(row.EventReason),
    }
  );
}

/** The card's last passage through the controller up to `at` (anti-passback), any door. */
export function lastPassage(db: Trx, areaId: number, card: string, deviceId: number, at: number) {
  return lastSwipe(db, areaId, card, { deviceId, granted: true, before: at });
}

/** The card's last refusal at the door as the controller reported it, and its last grant there. */
export async function lastAtDoor(db: Trx, areaId: number, card: string, door: CheckedDoor) {
  const at = { deviceId: door.DeviceId, door: door.DoorNumber };
  const [refused, granted] = await Promise.all([
    lastSwipe(db, areaId, card, { ...at, granted: false }),
    lastSwipe(db, areaId, card, { ...at, granted: true }),
  ]);
  return { refused, granted };
}
