import { DEFAULT_SITE_TIME_ZONE, PROTOCOL_WG, displayToCard, type ChainSlot } from '@gatehouse/shared';
import { customTimeZone } from '../../../platform/area-zone.ts';
import { fencedWrite, type ServiceContext } from '../../../platform/context.ts';
import { isoOrNull, numberOrNull } from '../../../platform/instants.ts';
import { emitEvent } from '../../../platform/outbox/outbox.ts';
import type { SyncRow } from '../card-user-link-channel/device-sync.ts';
import { ISSUE } from '../card-user-link-channel/lifecycle.ts';
import { inChunks, type Trx } from '../common.ts';
import { deviceProfilePlan } from './rules.ts';

/**
 * The seam between this module and the door-controller gateway (gateways/wg). The module owns the tables and
 * the rules (what a controller must hold, when an authorisation counts as issued); the gateway owns the wire.
 * The app carries the running gateway's `DoorControllers` on every context it makes (ServiceContext.seams),
 * and the routes here reach the doors through it; with none (WG off on this instance) they refuse with a clear
 * message.
 */

/** Why a controller command failed, as the operator is told. */
export type DoorControllerFailure =
  | 'offline'
  | 'timeout'
  | 'refused'
  | 'noAddress'
  | 'gatewayOff'
  /** Several instances: none drives the controller at this moment (a takeover within a lease term). */
  | 'notDriven';

export class DoorControllerError extends Error {
  constructor(
    readonly reason: DoorControllerFailure,
    message: string,
  ) {
    super(message);
    this.name = 'DoorControllerError';
  }
}

/** A controller as the gateway addresses it. */
export interface ControllerRef {
  Id: number;
  AreaId: number;
  SerialNumber: string;
  Name: string;
  Ip: string | null;
  Port: number | null;
  Type: number;
  /** The area's IANA zone: controller clocks and card dates are local wall-clock values. */
  TimeZone: string;
}

/**
 * What a controller holds of one card at one door, read live for an access check (docs/access-control.md, "Access
 * check"): the card (0x5A; dates as local dates, null for none), the time profiles its door value names followed
 * through their links (0x98; `profile` null for a slot the controller does not hold), the door's control (0x82) and
 * its clock's drift (0x32, controller minus server, in seconds).
 */
export interface ControllerCardRead {
  card: { from: string | null; to: string | null; doors: number[]; pin: boolean } | null;
  profiles: { slot: number; profile: ChainSlot | null }[];
  door: { mode: number; delay: number };
  driftSeconds: number | null;
}

export interface DoorControllers {
  openDoor(device: ControllerRef, door: number): Promise<void>;
  /** Reads what the controller holds of a card (its controller value) at a door, and its clock: nothing is written. */
  readCard(device: ControllerRef, card: number, door: number): Promise<ControllerCardRead>;
  setDoorMode(device: ControllerRef, door: number, mode: number, delay: number): Promise<void>;
  /** Sets the controller's clock to now; resolves with the drift measured just before. */
  setTime(device: ControllerRef): Promise<{ driftSeconds: number | null }>;
  /** Starts a compare-then-correct sync of the controller now (progress goes to the hub). */
  syncNow(device: ControllerRef): void;
}

declare module '../../../platform/context.ts' {
  interface Seams {
    /**
     * The door controllers this instance drives (gateways/wg, declared by app.ts once the gateway has started,
     * withdrawn when it closes; a test that starts a gateway by hand sets it on its app's seams). Absent: WG is
     * off on this instance.
     */
    doorControllers?: DoorControllers;
  }
}

/** The controllers the context carries, if any (ServiceContext.seams). */
export function doorControllers(ctx: ServiceContext): DoorControllers | undefined {
  return ctx.seams?.doorControllers;
}

/** Whether a gateway drives the controllers now (their stored state is kept current). */
export function gatewayRunning(ctx: ServiceContext): boolean {
  return ctx.seams?.doorControllers !== undefined;
}

/**
 * What the screens may say of a controller's stored state: with no gateway running, nobody watches the
 * controller, so its connection is unknown and a sync stored as running is not running (a pass cut short
 * by a stop); the gateway's next start compares every controller again.
 */
export function controllerStateAsKnown<
  T extends { Online: boolean | null; SyncState: string | null; SyncPhase: string | null },
>(driven: boolean, state: T): T {
  if (driven) return state;
  return {
    ...state,
    Online: null,
    ...(state.SyncState === 'running' ? { SyncState: null, SyncPhase: null } : {}),
  };
}

// ---- controllers -------------------------------------------------------------------------------------------

/** The WG controllers Gatehouse drives: assigned to an area and enabled (all of them, or one). */
export async function wgControllers(ctx: ServiceContext, deviceId?: number): Promise<ControllerRef[]> {
  let query = ctx.db.kysely
    .selectFrom('AccessControlDevice')
    .innerJoin('AreaInfo', 'AreaInfo.Id', 'AccessControlDevice.AreaId')
    .select([
      'AccessControlDevice.Id',
      'AccessControlDevice.AreaId',
      'AccessControlDevice.SerialNumber',
      'AccessControlDevice.Name',
      'AccessControlDevice.Ip',
      'AccessControlDevice.Port',
      'AccessControlDevice.Type',
      'AreaInfo.Custom',
    ])
    .where('AccessControlDevice.Protocol', '=', PROTOCOL_WG)
    .where('AccessControlDevice.Disabled', '=', 0);
  if (deviceId !== undefined) query = query.where('AccessControlDevice.Id', '=', deviceId);
  const rows = await query.orderBy('AccessControlDevice.Id').execute();
  return rows.map((r) => ({
    Id: r.Id,
    AreaId: r.AreaId!,
    SerialNumber: r.SerialNumber,
    Name: r.Name,
    Ip: r.Ip,
    Port: numberOrNull(r.Port),
    Type: r.Type,
    TimeZone: customTimeZone(r.Custom) ?? DEFAULT_SITE_TIME_ZONE,
  }));
}

export interface DeviceStatePatch {
  Online?: number | null;
  LastSeenAt?: number | null;
  Firmware?: string | null;
  ClockDriftSeconds?: number | null;
  DriftCheckedAt?: number | null;
  ListenerAddress?: string | null;
  LastError?: string | null;
  SyncState?: string | null;
  SyncPhase?: string | null;
  SyncDone?: number;
  SyncTotal?: number;
  SyncStartedAt?: number | null;
  SyncFinishedAt?: number | null;
  SyncError?: string | null;
}

/**
 * Records what the gateway learnt about a controller (one row per device, created on first use). A stored
 * connection that changes (answering, or silent; not "unknown") is a `controller.online` or
 * `controller.offline` event, written in the same transaction: the stored state is what the screens show.
 */
export async function saveDeviceState(
  ctx: ServiceContext,
  deviceId: number,
  patch: DeviceStatePatch,
): Promise<void> {
  const now = ctx.clock.now();
  const upsert = (k: Trx) =>
    k
      .insertInto('AccessControlDeviceState')
      .values({ DeviceId: deviceId, ...patch, UpdatedAt: now })
      .onConflict((oc) => oc.column('DeviceId').doUpdateSet({ ...patch, UpdatedAt: now }))
      .execute();
  const online = patch.Online;
  if (online === 0 || online === 1) {
    await fencedWrite(ctx, async (trx) => {
      // Locked on PostgreSQL, so of two writers of the same change only the first sees it as one.
      const before = await trx
        .selectFrom('AccessControlDeviceState')
        .select('Online')
        .where('DeviceId', '=', deviceId)
        .$if(ctx.db.dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      await upsert(trx);
      const was = before?.Online === null || before?.Online === undefined ? null : Number(before.Online);
      if (was !== online) await emitControllerState(trx, deviceId, online === 1, now);
    });
    return;
  }
  // A gateway's write goes behind its lease on the controller (ServiceContext.fence); a route's alone.
  await (ctx.fence ? fencedWrite(ctx, upsert) : upsert(ctx.db.kysely));
}

/**
 * A controller's stored connection changed, as the event of the outbox (platform/outbox) a monitoring system
 * pages on: the controller's name, serial number, last answer and firmware as stored with this change.
 */
async function emitControllerState(trx: Trx, deviceId: number, online: boolean, at: number): Promise<void> {
  const row = await trx
    .selectFrom('AccessControlDevice as D')
    .innerJoin('AreaInfo as A', 'A.Id', 'D.AreaId')
    .leftJoin('AccessControlDeviceState as S', 'S.DeviceId', 'D.Id')
    .select([
      'D.Id',
      'D.Name',
      'D.SerialNumber',
      'D.AreaId',
      'A.Name as AreaName',
      'S.LastSeenAt',
      'S.Firmware',
    ])
    .where('D.Id', '=', deviceId)
    .executeTakeFirst();
  // A controller in no area is driven by nobody and belongs to no area's subscribers.
  if (!row || row.AreaId === null) return;
  await emitEvent(trx, {
    type: online ? 'controller.online' : 'controller.offline',
    at,
    data: {
      AreaId: row.AreaId,
      AreaName: row.AreaName,
      DeviceId: row.Id,
      DeviceName: row.Name,
      SerialNumber: row.SerialNumber,
      LastSeenAt: isoOrNull(row.LastSeenAt),
      Firmware: row.Firmware ?? null,
    },
  });
}

// ---- authorisation sync: what the controller must hold (the statuses move in card-user-link-channel) ---------

/** What one card must look like on the controller. Instants: the gateway turns them into local dates. */
export interface DesiredCard {
  cardValue: number;
  holderId: number;
  from: number;
  to: number;
  /** door numbers 1..4 this card opens */
  doors: number[];
  /**
   * The door values of put card (0x50 offsets 20..23), doors 1..4: 0 none, 1 at any time, 2..254 the
   * controller profile (the head of its time profile's chain) that says when.
   */
  doorValues: [number, number, number, number];
}

export interface SyncPlan {
  rows: SyncRow[];
  /** card value → what the controller must hold */
  cards: Map<number, DesiredCard>;
  /** holder → every card value of the holder (held or not): a row is confirmed when all of them are right */
  holderCards: Map<number, number[]>;
}

const LIVE: number[] = [ISSUE.pendingIssue, ISSUE.pendingUpdate, ISSUE.issueSucceeded];

/** A holder's cards on one controller: the span of its validities, its doors and a door value per door. */
interface Grant {
  from: number;
  to: number;
  doors: Set<number>;
  values: [number, number, number, number];
}

/**
 * The slot a card's door value names for each time profile the controller's cards use (the head of its
 * compiled chain). A controller over its budget gets 0 for them (no access): never a profile it lacks, which
 * a controller would treat as "at any time".
 */
async function profileHeads(
  ctx: ServiceContext,
  deviceId: number,
  any: boolean,
  keep: boolean,
): Promise<Map<number, number>> {
  if (!any) return new Map();
  const device = await ctx.db.kysely
    .selectFrom('AccessControlDevice')
    .select(['Id', 'AreaId'])
    .where('Id', '=', deviceId)
    .executeTakeFirst();
  if (!device?.AreaId) return new Map();
  const plan = await deviceProfilePlan(
    ctx.db.kysely,
    { Id: device.Id, AreaId: device.AreaId },
    ctx.clock.now(),
    keep,
  );
  return 'over' in plan ? new Map() : plan.head;
}

/** An authorisation of the device as the plan reads it, with its holder, door and visitor pass (if any). */
function planLinks(k: Trx, deviceId: number, cardUserId: number | undefined) {
  return k
    .selectFrom('CardUserLinkChannel as L')
    .innerJoin('CardUser as U', 'U.Id', 'L.CardUserId')
    .innerJoin('AccessControlChannel as C', 'C.Id', 'L.ChannelId')
    .leftJoin('VisitorPass as P', 'P.CardUserId', 'L.CardUserId')
    .select([
      'L.Id',
      'L.CardUserId',
      'P.State as PassState',
      'P.ValidTo as PassEnd',
      'L.IssueStatus',
      'L.UpdatedAt',
      'L.ValidFrom',
      'L.ValidTo',
      'L.Revoked',
      'U.ValidFrom as HolderFrom',
      'U.ValidTo as HolderTo',
      'U.Disabled',
      'C.DoorNumber',
      'L.TimeProfileId',
    ])
    .where('L.DeviceId', '=', deviceId)
    .where('L.IssueStatus', 'in', [...LIVE, ISSUE.pendingDeletion])
    .$if(cardUserId !== undefined, (q) => q.where('L.CardUserId', '=', cardUserId!))
    .execute();
}

/** Each card of each holder granted on the device, as the controller must hold it. */
function desiredCards(
  grants: Map<number, Grant>,
  holderCards: Map<number, number[]>,
): Map<number, DesiredCard> {
  const cards = new Map<number, DesiredCard>();
  for (const [holderId, g] of grants) {
    if (g.to < g.from) continue;
    const doors = [...g.doors].sort();
    for (const cardValue of holderCards.get(holderId) ?? [])
      cards.set(cardValue, {
        cardValue,
        holderId,
        from: g.from,
        to: g.to,
        doors,
        doorValues: [...g.values] as Grant['values'],
      });
  }
  return cards;
}

/**
 * What the controller must hold, from the database: per card of every holder with a live authorisation on
 * it, the doors of the holder's live channels on this device and the validity (the holder's, narrowed by the
 * authorisation's own; a card has one range on the controller, so a holder with several ranges on one
 * device gets their span). Everything else on the controller is to be deleted.
 *
 * `only` plans one holder's cards alone (the access check's "what must the controller hold of this card"): the
 * same rule, the same card, and nothing stored (the profile slots are read as assigned, not kept).
 */
export async function syncPlan(
  ctx: ServiceContext,
  deviceId: number,
  only?: { cardUserId: number },
): Promise<SyncPlan> {
  const k = ctx.db.kysely;
  const links = await planLinks(k, deviceId, only?.cardUserId);
  const holderIds = [...new Set(links.map((l) => l.CardUserId))];
  const holderCards = new Map<number, number[]>(holderIds.map((h) => [h, []]));
  const held = await inChunks(holderIds, (chunk) =>
    k.selectFrom('Card').select(['CardUserId', 'CardNumber']).where('CardUserId', 'in', chunk).execute(),
  );
  for (const c of held) holderCards.get(c.CardUserId!)!.push(displayToCard(c.CardNumber));
  const grants = new Map<number, Grant>();
  // A visitor pass that ended (its end passed, or it was revoked) is never written, even before the expiry sweep
  // has revoked its authorisations: a controller reset, or an instance that died at its end, cannot bring it
  // back (docs/access-control.md, "Visitor passes"). Its rows wait for that revoke, not for this pass.
  const now = ctx.clock.now();
  const passEnded = (l: (typeof links)[number]) =>
    l.PassState !== null && (Number(l.PassState) !== 1 || Number(l.PassEnd) <= now);
  const live = links.filter(
    (l) => LIVE.includes(l.IssueStatus) && !l.Revoked && !l.Disabled && l.DoorNumber >= 1 && !passEnded(l),
  );
  const heads = await profileHeads(
    ctx,
    deviceId,
    live.some((l) => l.TimeProfileId !== null),
    only === undefined,
  );
  // Newest authorisation last: where one holder's authorisations on a door disagree, "at any time" wins, else
  // the newest one's profile (grants refuse such a disagreement; a channel moved to another door may make one).
  for (const l of [...live].sort((a, b) => a.Id - b.Id)) {
    const from = Math.max(Number(l.HolderFrom), l.ValidFrom === null ? -Infinity : Number(l.ValidFrom));
    const to = Math.min(Number(l.HolderTo), l.ValidTo === null ? Infinity : Number(l.ValidTo));
    const value = l.TimeProfileId === null ? 1 : (heads.get(l.TimeProfileId) ?? 0);
    const g: Grant = grants.get(l.CardUserId) ?? { from, to, doors: new Set(), values: [0, 0, 0, 0] };
    g.from = Math.min(g.from, from);
    g.to = Math.max(g.to, to);
    if (!g.doors.has(l.DoorNumber) || g.values[l.DoorNumber - 1] !== 1) g.values[l.DoorNumber - 1] = value;
    g.doors.add(l.DoorNumber);
    grants.set(l.CardUserId, g);
  }
  return {
    rows: links
      .filter((l) => !(passEnded(l) && LIVE.includes(l.IssueStatus)))
      .map((l) => ({
        Id: l.Id,
        CardUserId: l.CardUserId,
        IssueStatus: l.IssueStatus,
        UpdatedAt: Number(l.UpdatedAt),
      })),
    cards: desiredCards(grants, holderCards),
    holderCards,
  };
}
