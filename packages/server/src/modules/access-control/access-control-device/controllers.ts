import { DEFAULT_SITE_TIME_ZONE, PROTOCOL_WG, displayToCard } from '@gatehouse/shared';
import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import { customTimeZone } from '../../../platform/area-zone.ts';
import { audit } from '../../../platform/audit.ts';
import { fencedWrite, type ServiceContext } from '../../../platform/context.ts';
import { ISSUE, PENDING_SYNC } from '../card-user-link-channel/lifecycle.ts';
import { inChunks, type Trx } from '../common.ts';
import { deviceProfilePlan } from './rules.ts';

/**
 * The seam between this module and the door-controller gateway (gateways/wg). The module owns the tables and
 * the rules (what a controller must hold, when an authorisation counts as issued); the gateway owns the wire.
 * The gateway installs a `DoorControllers` for its database at start, and the routes here reach the doors
 * through it; with none installed (WG off) they refuse with a clear message.
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

export interface DoorControllers {
  openDoor(device: ControllerRef, door: number): Promise<void>;
  setDoorMode(device: ControllerRef, door: number, mode: number, delay: number): Promise<void>;
  /** Sets the controller's clock to now; resolves with the drift measured just before. */
  setTime(device: ControllerRef): Promise<{ driftSeconds: number | null }>;
  /** Starts a compare-then-correct sync of the controller now (progress goes to the hub). */
  syncNow(device: ControllerRef): void;
}

const installed = new WeakMap<Db, DoorControllers>();

/** Keyed by database: two apps in one process (tests) each have their own gateway. */
export function installDoorControllers(db: Db, controllers: DoorControllers | undefined): void {
  if (controllers) installed.set(db, controllers);
  else installed.delete(db);
}

export function doorControllers(db: Db): DoorControllers | undefined {
  return installed.get(db);
}

/** Whether a gateway drives this database's controllers now (its stored state is kept current). */
export function gatewayRunning(db: Db): boolean {
  return installed.has(db);
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
    Port: r.Port === null ? null : Number(r.Port),
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

/** Records what the gateway learnt about a controller (one row per device, created on first use). */
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
  // A gateway's write goes behind its lease on the controller (ServiceContext.fence); a route's alone.
  await (ctx.fence ? fencedWrite(ctx, upsert) : upsert(ctx.db.kysely));
}

// ---- authorisation sync ------------------------------------------------------------------------------------

/** An authorisation as the sync reads it: enough to confirm it later only if nothing changed meanwhile. */
export interface SyncRow {
  Id: number;
  CardUserId: number;
  IssueStatus: number;
  UpdatedAt: number;
}

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
  );
  return 'over' in plan ? new Map() : plan.head;
}

/**
 * What the controller must hold, from the database: per card of every holder with a live authorisation on
 * it, the doors of the holder's live channels on this device and the validity (the holder's, narrowed by the
 * authorisation's own; a card has one range on the controller, so a holder with several ranges on one
 * device gets their span). Everything else on the controller is to be deleted.
 */
export async function syncPlan(ctx: ServiceContext, deviceId: number): Promise<SyncPlan> {
  const k = ctx.db.kysely;
  const links = await k
    .selectFrom('CardUserLinkChannel as L')
    .innerJoin('CardUser as U', 'U.Id', 'L.CardUserId')
    .innerJoin('AccessControlChannel as C', 'C.Id', 'L.ChannelId')
    .select([
      'L.Id',
      'L.CardUserId',
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
    .execute();
  const holderIds = [...new Set(links.map((l) => l.CardUserId))];
  const holderCards = new Map<number, number[]>(holderIds.map((h) => [h, []]));
  const held = await inChunks(holderIds, (chunk) =>
    k.selectFrom('Card').select(['CardUserId', 'CardNumber']).where('CardUserId', 'in', chunk).execute(),
  );
  for (const c of held) holderCards.get(c.CardUserId!)!.push(displayToCard(c.CardNumber));
  const grants = new Map<number, Grant>();
  const live = links.filter(
    (l) => LIVE.includes(l.IssueStatus) && !l.Revoked && !l.Disabled && l.DoorNumber >= 1,
  );
  const heads = await profileHeads(
    ctx,
    deviceId,
    live.some((l) => l.TimeProfileId !== null),
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
  return {
    rows: links.map((l) => ({
      Id: l.Id,
      CardUserId: l.CardUserId,
      IssueStatus: l.IssueStatus,
      UpdatedAt: Number(l.UpdatedAt),
    })),
    cards,
    holderCards,
  };
}

/**
 * A sync pass is about to write the device's pending authorisations: from here the controller may hold them,
 * so revoking one must wait for the controller to confirm its removal. Called before the pass reads its plan,
 * so a row revoked meanwhile is either marked (and waits for the deletion) or left out of the plan.
 */
export async function markSending(ctx: ServiceContext, deviceId: number): Promise<void> {
  await fencedWrite(ctx, (trx) =>
    trx
      .updateTable('CardUserLinkChannel')
      .set({ SentToDevice: 1 })
      .where('DeviceId', '=', deviceId)
      .where('IssueStatus', 'in', [ISSUE.pendingIssue, ISSUE.pendingUpdate])
      .where('SentToDevice', '=', 0)
      .execute(),
  );
}

/** Devices with authorisations waiting for the controller whose back-off has passed. */
export async function devicesDueForSync(ctx: ServiceContext): Promise<number[]> {
  const now = ctx.clock.now();
  const rows = await ctx.db.kysely
    .selectFrom('CardUserLinkChannel')
    .select('DeviceId')
    .distinct()
    .where('IssueStatus', 'in', PENDING_SYNC)
    .where((eb) => eb.or([eb('NextSyncAt', 'is', null), eb('NextSyncAt', '<=', now)]))
    .execute();
  return rows.map((r) => r.DeviceId);
}

/**
 * The controller now holds what these authorisations ask: 1/2 → 3 issue succeeded, -1 → -2 deletion
 * succeeded, with one audit entry by the device actor in the same transaction. A row changed since the sync
 * read it (status or UpdatedAt differ) is left alone: its change waits for the next pass. In batches, so a
 * controller of 10,000 cards never holds the database for long. Returns how many rows moved.
 */
export async function confirmSync(
  ctx: ServiceContext,
  rows: SyncRow[],
): Promise<{ issued: number; deleted: number }> {
  const now = ctx.clock.now();
  let issued = 0;
  let deleted = 0;
  const pending = rows.filter((r) => r.IssueStatus !== ISSUE.issueSucceeded);
  // Rows already at 3 only lose a failure note, if they had one.
  for (let i = 0; i < pending.length; i += 500) {
    const batch = pending.slice(i, i + 500);
    await fencedWrite(ctx, async (trx) => {
      const moved: { Id: number; IssueStatus: number }[] = [];
      for (const r of batch) {
        const next = r.IssueStatus === ISSUE.pendingDeletion ? ISSUE.deletionSucceeded : ISSUE.issueSucceeded;
        const result = await trx
          .updateTable('CardUserLinkChannel')
          .set({
            IssueStatus: next,
            SyncAttempts: 0,
            NextSyncAt: null,
            SyncError: null,
            SyncedAt: now,
            SentToDevice: next === ISSUE.deletionSucceeded ? 0 : 1,
          })
          .where('Id', '=', r.Id)
          .where('IssueStatus', '=', r.IssueStatus)
          .where('UpdatedAt', '=', r.UpdatedAt)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 1) moved.push({ Id: r.Id, IssueStatus: next });
      }
      if (moved.length === 0) return;
      const issuedIds = moved.filter((m) => m.IssueStatus === ISSUE.issueSucceeded).map((m) => m.Id);
      const deletedIds = moved.filter((m) => m.IssueStatus === ISSUE.deletionSucceeded).map((m) => m.Id);
      issued += issuedIds.length;
      deleted += deletedIds.length;
      await audit(
        ctx,
        {
          action: 'sync',
          entity: 'CardUserLinkChannel',
          after: { Issued: issuedIds, Deleted: deletedIds },
        },
        trx,
      );
    });
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { issued, deleted };
}

/**
 * The controller could not be brought in line for these authorisations: count the attempt, store why, and
 * wait before the next one (doubling from `baseMs` up to `maxMs`). Only pending rows carry a failure.
 */
export async function failSync(
  ctx: ServiceContext,
  rows: SyncRow[],
  reason: 'offline' | 'refused' | 'timeout',
  backoff: { baseMs: number; maxMs: number },
): Promise<void> {
  const ids = rows.filter((r) => r.IssueStatus !== ISSUE.issueSucceeded).map((r) => r.Id);
  const now = ctx.clock.now();
  for (let i = 0; i < ids.length; i += 500) {
    const batch = ids.slice(i, i + 500);
    // Attempts grow per row; the delay follows the row's own count (capped), computed in SQL on both databases.
    const rowsNow = await ctx.db.kysely
      .selectFrom('CardUserLinkChannel')
      .select(['Id', 'SyncAttempts'])
      .where('Id', 'in', batch)
      .execute();
    const byAttempts = new Map<number, number[]>();
    for (const r of rowsNow) {
      const list = byAttempts.get(r.SyncAttempts) ?? [];
      list.push(r.Id);
      byAttempts.set(r.SyncAttempts, list);
    }
    await fencedWrite(ctx, async (trx) => {
      for (const [attempts, idsAt] of byAttempts) {
        const delay = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(attempts, 20));
        await trx
          .updateTable('CardUserLinkChannel')
          .set({
            SyncAttempts: sql<number>`"SyncAttempts" + 1`,
            NextSyncAt: now + delay,
            SyncError: reason,
          })
          .where('Id', 'in', idsAt)
          .execute();
      }
    });
  }
}

/** Lets every pending authorisation of a device be tried again now ("sync now"). */
export async function clearSyncBackoff(ctx: ServiceContext, deviceId: number): Promise<void> {
  await ctx.db.kysely
    .updateTable('CardUserLinkChannel')
    .set({ NextSyncAt: null })
    .where('DeviceId', '=', deviceId)
    .where('NextSyncAt', 'is not', null)
    .execute();
}
