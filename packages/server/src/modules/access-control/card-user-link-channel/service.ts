import {
  enumValues,
  issueStatus,
  protocolNeedsSync,
  type BatchGrantInput,
  type BatchGrantResult,
  type CardUserLinkChannelItem,
  type DeviceStatusCount,
  type GrantResult,
  type RevokeResult,
} from '@gatehouse/shared';
import { sql, type Insertable } from 'kysely';
import { audit } from '../../../platform/audit.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { inChunks, iso, type Trx } from '../common.ts';
import { controllerStateAsKnown, gatewayRunning } from '../access-control-device/controllers.ts';
import { markRulesChanged } from '../access-control-device/rules.ts';
import { assertProfileBudget, planInputs } from '../time-profile/service.ts';
import { areaChannels } from '../access-control-channel/service.ts';
import { inDepartmentTree } from '../card-user/items.ts';
import type { CardUserLinkChannelTable } from '../tables.ts';
import { ISSUE, PENDING_SYNC, changedStatus, grantedStatus, removedStatusSql } from './lifecycle.ts';
import {
  authorisationIds,
  authorisationItems,
  emitAuthorisationChanges,
  emitAuthorisations,
  type AuthorisationChange,
} from './events.ts';
import { numberOrNull } from '../../../platform/instants.ts';

/**
 * Granting and revoking. An authorisation is one holder on one channel; the controller opens the door for
 * every card the holder has. Validity null follows the holder's (an extension carries over); set, it narrows it.
 */
export interface Validity {
  ValidFrom: number | null;
  ValidTo: number | null;
}

/** What a grant gives besides the channels: its own validity (or the holder's) and its time profile. */
export interface Terms extends Validity {
  /** null: at any time. */
  TimeProfileId: number | null;
}

/** The validity of the grant, when it has one of its own; the holder's otherwise. */
export function validityOf(input: { ValidFrom?: number | null; ValidTo?: number | null }): Validity {
  return { ValidFrom: input.ValidFrom ?? null, ValidTo: input.ValidTo ?? null };
}

/** A grant's terms: its validity and its time profile (none: at any time). */
export function termsOf(input: {
  ValidFrom?: number | null;
  ValidTo?: number | null;
  TimeProfileId?: number | null;
}): Terms {
  return { ...validityOf(input), TimeProfileId: input.TimeProfileId ?? null };
}

/** Whether a stored authorisation already has these terms (columns may come back as text). */
function sameTerms(
  row: { ValidFrom: unknown; ValidTo: unknown; TimeProfileId: unknown },
  terms: Terms,
): boolean {
  return (
    numberOrNull(row.ValidFrom) === terms.ValidFrom &&
    numberOrNull(row.ValidTo) === terms.ValidTo &&
    numberOrNull(row.TimeProfileId) === terms.TimeProfileId
  );
}

interface ChannelRow {
  Id: number;
  DeviceId: number;
  Protocol: number;
}

async function channelsOf(trx: Trx, areaId: number, channelIds: number[]): Promise<ChannelRow[]> {
  const unique = [...new Set(channelIds)];
  const rows = await areaChannels(trx, areaId).where('AccessControlChannel.Id', 'in', unique).execute();
  if (rows.length !== unique.length) throw fieldError('ChannelIds', 'accessControl.error.channelMissing');
  return rows;
}

/**
 * Grants holders × channels in the caller's transaction; existing rows are reused, never duplicated. A time
 * profile must be the area's; what it leaves each controller must fit its profile slots, and a holder's
 * authorisations on one door must agree on their profile (a card has one value per door).
 */
async function grant(
  ctx: AreaContext,
  trx: Trx,
  holderIds: number[],
  channels: ChannelRow[],
  validity: Terms,
): Promise<GrantResult> {
  await checkProfile(trx, ctx.areaId, validity.TimeProfileId);
  const { result, changed } = await writeGrants(ctx, trx, holderIds, channels, validity);
  await afterProfileChange(ctx, trx, holderIds, [...new Set(channels.map((c) => c.DeviceId))]);
  await emitGrants(ctx, trx, changed);
  return result;
}

/** A grant's new and changed authorisations as events (rows left as they were report nothing). */
async function emitGrants(
  ctx: AreaContext,
  trx: Trx,
  changed: { holderId: number; channelId: number; change: AuthorisationChange }[],
): Promise<void> {
  if (changed.length === 0) return;
  const changeOf = new Map(changed.map((c) => [`${c.holderId}:${c.channelId}`, c.change]));
  const items = await authorisationItems(ctx, trx, await authorisationIds(trx, changed));
  await emitAuthorisationChanges(
    ctx,
    trx,
    [...items.values()].map((item) => ({
      item,
      change: changeOf.get(`${item.CardUserId}:${item.ChannelId}`)!,
    })),
  );
}

async function writeGrants(
  ctx: AreaContext,
  trx: Trx,
  holderIds: number[],
  channels: ChannelRow[],
  validity: Terms,
): Promise<{
  result: GrantResult;
  changed: { holderId: number; channelId: number; change: AuthorisationChange }[];
}> {
  const now = ctx.clock.now();
  const result: GrantResult = { Granted: 0, Updated: 0, Unchanged: 0 };
  const changed: { holderId: number; channelId: number; change: AuthorisationChange }[] = [];
  const note = (holderId: number, channelId: number, change: AuthorisationChange) =>
    changed.push({ holderId, channelId, change });
  const channelIds = channels.map((c) => c.Id);
  const inserts: Insertable<CardUserLinkChannelTable>[] = [];
  for (let i = 0; i < holderIds.length; i += 500) {
    const batch = holderIds.slice(i, i + 500);
    const existing = await trx
      .selectFrom('CardUserLinkChannel')
      .select([
        'Id',
        'CardUserId',
        'ChannelId',
        'ValidFrom',
        'ValidTo',
        'TimeProfileId',
        'IssueStatus',
        'Revoked',
      ])
      .where('CardUserId', 'in', batch)
      .where('ChannelId', 'in', channelIds)
      .execute();
    const byKey = new Map(existing.map((e) => [`${e.CardUserId}:${e.ChannelId}`, e]));
    for (const holderId of batch) {
      for (const channel of channels) {
        const row = byKey.get(`${holderId}:${channel.Id}`);
        if (!row) {
          inserts.push({
            AreaId: ctx.areaId,
            CardUserId: holderId,
            ChannelId: channel.Id,
            DeviceId: channel.DeviceId,
            ...validity,
            IssueStatus: grantedStatus(channel.Protocol),
            SentToDevice: 0,
            CreatedAt: now,
            UpdatedAt: now,
          });
          note(holderId, channel.Id, 'granted');
          result.Granted++;
        } else if (row.Revoked) {
          await trx
            .updateTable('CardUserLinkChannel')
            .set({ ...validity, Revoked: 0, IssueStatus: grantedStatus(channel.Protocol), UpdatedAt: now })
            .where('Id', '=', row.Id)
            .execute();
          note(holderId, channel.Id, 'granted');
          result.Granted++;
        } else if (!sameTerms(row, validity)) {
          await trx
            .updateTable('CardUserLinkChannel')
            .set({ ...validity, IssueStatus: changedStatus(row.IssueStatus), UpdatedAt: now })
            .where('Id', '=', row.Id)
            .execute();
          note(holderId, channel.Id, 'updated');
          result.Updated++;
        } else {
          result.Unchanged++;
        }
      }
    }
  }
  await inChunks(inserts, (chunk) => trx.insertInto('CardUserLinkChannel').values(chunk).execute());
  return { result, changed };
}

/** The time profile of a grant must be one of the area's. */
async function checkProfile(trx: Trx, areaId: number, profileId: number | null): Promise<void> {
  if (profileId === null) return;
  const found = await trx
    .selectFrom('TimeProfile')
    .select('Id')
    .where('Id', '=', profileId)
    .where('AreaId', '=', areaId)
    .executeTakeFirst();
  if (!found) throw fieldError('TimeProfileId', 'accessControl.error.profileMissing');
}

/**
 * After authorisations changed their profiles: one holder's live authorisations on a door must agree (409,
 * naming the door), the controllers' profile slots must suffice (409), and the controllers hear of it.
 */
async function afterProfileChange(ctx: AreaContext, trx: Trx, holderIds: number[], deviceIds: number[]) {
  if (deviceIds.length === 0 || holderIds.length === 0) return;
  const clash = await inChunks(holderIds, (chunk) =>
    trx
      .selectFrom('CardUserLinkChannel as L')
      .innerJoin('AccessControlChannel as C', 'C.Id', 'L.ChannelId')
      .innerJoin('AccessControlDevice as D', 'D.Id', 'L.DeviceId')
      .select(['D.Name', 'C.DoorNumber'])
      .where('L.CardUserId', 'in', chunk)
      .where('L.DeviceId', 'in', deviceIds)
      .where('L.Revoked', '=', 0)
      .where('L.IssueStatus', 'in', [
        ISSUE.pendingIssue,
        ISSUE.pendingUpdate,
        ISSUE.issueSucceeded,
        ISSUE.noIssueNeeded,
      ])
      .where('C.DoorNumber', '>', 0)
      .groupBy(['L.CardUserId', 'D.Name', 'C.DoorNumber'])
      .having(sql`count(distinct coalesce("L"."TimeProfileId", 0))`, '>', 1)
      .limit(1)
      .execute(),
  );
  if (clash[0])
    throw new AppError(409, 'accessControl.error.doorProfileConflict', {
      device: clash[0].Name,
      door: clash[0].DoorNumber,
    });
  await assertProfileBudget(trx, ctx.areaId, await planInputs(trx, ctx.areaId), deviceIds);
  await markRulesChanged(trx, { deviceIds }, ctx.clock.now());
}

async function cardCounts(trx: Trx, holderIds: number[]): Promise<Map<number, number>> {
  const rows = await inChunks(holderIds, (chunk) =>
    trx
      .selectFrom('Card')
      .select((eb) => ['CardUserId', eb.fn.countAll().as('n')])
      .where('CardUserId', 'in', chunk)
      .groupBy('CardUserId')
      .execute(),
  );
  return new Map(rows.map((r) => [Number(r.CardUserId), Number(r.n)]));
}

/** One holder onto chosen channels. The holder must be enabled and have a card. */
export async function grantToHolder(
  ctx: AreaContext,
  holderId: number,
  channelIds: number[],
  validity: Terms,
): Promise<GrantResult> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const holder = await trx
      .selectFrom('CardUser')
      .select(['Id', 'Name', 'Disabled'])
      .where('Id', '=', holderId)
      .where('AreaId', '=', ctx.areaId)
      .executeTakeFirst();
    if (!holder) throw notFound();
    if (holder.Disabled) throw new AppError(409, 'accessControl.error.holderDisabled', { name: holder.Name });
    if (!(await cardCounts(trx, [holderId])).get(holderId))
      throw new AppError(409, 'accessControl.error.holderHasNoCard', { name: holder.Name });
    const channels = await channelsOf(trx, ctx.areaId, channelIds);
    const result = await grant(ctx, trx, [holderId], channels, validity);
    await audit(
      ctx,
      {
        action: 'grant',
        entity: 'CardUserLinkChannel',
        entityId: holderId,
        after: { ChannelIds: channelIds, ...validity, ...result },
      },
      trx,
    );
    return result;
  });
}

/**
 * A department (with its sub-departments unless IncludeSubDepartments is false) or a people group onto
 * chosen channels, in one transaction. Disabled holders and holders without a card are left out and counted.
 */
export async function batchGrant(ctx: AreaContext, input: BatchGrantInput): Promise<BatchGrantResult> {
  const areaId = ctx.areaId;
  if ((input.DepartmentId === undefined) === (input.PeopleGroupId === undefined))
    throw fieldError('DepartmentId', 'accessControl.error.departmentOrGroup');
  return ctx.db.kysely.transaction().execute(async (trx) => {
    let holders = trx.selectFrom('CardUser').select(['Id', 'Disabled']).where('AreaId', '=', areaId);
    if (input.DepartmentId !== undefined) {
      const department = await trx
        .selectFrom('Department')
        .select('Id')
        .where('Id', '=', input.DepartmentId)
        .where('AreaId', '=', areaId)
        .executeTakeFirst();
      if (!department) throw fieldError('DepartmentId', 'error.departmentMissing');
      const departmentId = input.DepartmentId;
      holders =
        input.IncludeSubDepartments === false
          ? holders.where('DepartmentId', '=', departmentId)
          : holders.where(inDepartmentTree('DepartmentId', departmentId));
    } else {
      const group = await trx
        .selectFrom('PeopleGroup')
        .select('Id')
        .where('Id', '=', input.PeopleGroupId!)
        .where('AreaId', '=', areaId)
        .executeTakeFirst();
      if (!group) throw fieldError('PeopleGroupId', 'accessControl.error.peopleGroupMissing');
      holders = holders.where('PeopleGroupId', '=', input.PeopleGroupId!);
    }
    const rows = await holders.orderBy('Id').execute();
    const channels = await channelsOf(trx, areaId, input.ChannelIds);
    const enabled = rows.filter((r) => !r.Disabled).map((r) => r.Id);
    const cards = await cardCounts(trx, enabled);
    const eligible = enabled.filter((holderId) => cards.get(holderId));
    const result = await grant(ctx, trx, eligible, channels, termsOf(input));
    const out: BatchGrantResult = {
      Holders: rows.length,
      SkippedDisabled: rows.length - enabled.length,
      SkippedNoCard: enabled.length - eligible.length,
      ...result,
    };
    await audit(
      ctx,
      {
        action: 'batchGrant',
        entity: 'CardUserLinkChannel',
        after: { ...input, ...termsOf(input), ...out },
      },
      trx,
    );
    return out;
  });
}

async function findAuthorization(ctx: AreaContext, trx: Trx, authId: number) {
  const row = await trx
    .selectFrom('CardUserLinkChannel')
    .innerJoin('AccessControlDevice', 'AccessControlDevice.Id', 'CardUserLinkChannel.DeviceId')
    .selectAll('CardUserLinkChannel')
    .select('AccessControlDevice.Protocol')
    .where('CardUserLinkChannel.Id', '=', authId)
    .where('CardUserLinkChannel.AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/**
 * A new validity (and time profile, when given) for one authorisation: pending update if the controller has
 * or is getting it.
 */
export async function changeValidity(
  ctx: AreaContext,
  authId: number,
  validity: Validity,
  profileId?: number | null,
): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const row = await findAuthorization(ctx, trx, authId);
    if (row.Revoked) throw new AppError(409, 'accessControl.error.authorizationRevoked');
    const terms = { ...validity, TimeProfileId: profileId === undefined ? row.TimeProfileId : profileId };
    if (sameTerms(row, terms)) return;
    await checkProfile(trx, ctx.areaId, terms.TimeProfileId);
    await trx
      .updateTable('CardUserLinkChannel')
      .set({ ...terms, IssueStatus: changedStatus(row.IssueStatus), UpdatedAt: ctx.clock.now() })
      .where('Id', '=', authId)
      .execute();
    if (terms.TimeProfileId !== row.TimeProfileId)
      await afterProfileChange(ctx, trx, [row.CardUserId], [row.DeviceId]);
    await emitAuthorisations(ctx, trx, [authId], 'updated');
    await audit(
      ctx,
      { action: 'update', entity: 'CardUserLinkChannel', entityId: authId, before: row, after: terms },
      trx,
    );
  });
}

/**
 * Revokes authorisations (all or none): pending deletion until the device sync confirms it, or deletion
 * succeeded at once when the controller never got it. On a device whose protocol needs no sync there is
 * nothing to wait for, so the row is removed.
 */
export async function revoke(ctx: AreaContext, ids: number[]): Promise<RevokeResult> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const out = await revokeRows(ctx, trx, ids);
    await audit(ctx, { action: 'revoke', entity: 'CardUserLinkChannel', after: { Ids: ids, ...out } }, trx);
    return out;
  });
}

/** Revokes authorisations in the caller's transaction (see `revoke`), with their events. */
async function revokeRows(ctx: AreaContext, trx: Trx, ids: number[]): Promise<RevokeResult> {
  const now = ctx.clock.now();
  const out = { Revoked: 0, Removed: 0 };
  const revoked: number[] = [];
  // A removed row is reported as it was just before, revoked: nothing is left to read afterwards.
  const removed: CardUserLinkChannelItem[] = [];
  for (const authId of new Set(ids)) {
    const row = await findAuthorization(ctx, trx, authId);
    if (row.Revoked) continue;
    if (!protocolNeedsSync(row.Protocol)) {
      const before = (await authorisationItems(ctx, trx, [authId])).get(authId);
      await trx.deleteFrom('CardUserLinkChannel').where('Id', '=', authId).execute();
      if (before) removed.push({ ...before, Revoked: true, UpdatedAt: iso(now)! });
      out.Removed++;
    } else {
      revoked.push(authId);
      await trx
        .updateTable('CardUserLinkChannel')
        .set({ Revoked: 1, IssueStatus: removedStatusSql(), UpdatedAt: now })
        .where('Id', '=', authId)
        .execute();
      out.Revoked++;
    }
  }
  const items = await authorisationItems(ctx, trx, revoked);
  await emitAuthorisationChanges(
    ctx,
    trx,
    [...removed, ...items.values()].map((item) => ({ item, change: 'revoked' as const })),
  );
  return out;
}

/**
 * A visitor pass's doors (visitor-pass/service.ts), in the pass's transaction: its holder row onto the channels
 * with the pass's terms, checked and counted as any grant (the area's channels, the controllers' profile slots).
 */
export async function grantVisitorDoors(
  ctx: AreaContext,
  trx: Trx,
  holderId: number,
  channelIds: number[],
  terms: Terms,
): Promise<void> {
  await grant(ctx, trx, [holderId], await channelsOf(trx, ctx.areaId, channelIds), terms);
}

/** A visitor pass ended: every authorisation of its holder row is revoked (its card leaves the controllers). */
export async function revokeVisitorDoors(ctx: AreaContext, trx: Trx, holderId: number): Promise<void> {
  const rows = await trx
    .selectFrom('CardUserLinkChannel')
    .select('Id')
    .where('CardUserId', '=', holderId)
    .where('Revoked', '=', 0)
    .execute();
  if (rows.length)
    await revokeRows(
      ctx,
      trx,
      rows.map((r) => r.Id),
    );
}

/**
 * Lets visitor-pass time profiles go (time-profile/service.ts, dropVisitorProfiles): the revoked authorisations
 * whose removal the controllers confirmed forget them. True when none still needs them: no authorisation that
 * is not revoked, nor one whose removal is pending, uses any of them.
 */
export async function releaseProfiles(trx: Trx, profileIds: number[]): Promise<boolean> {
  if (profileIds.length === 0) return true;
  const busy = await trx
    .selectFrom('CardUserLinkChannel')
    .select('Id')
    .where('TimeProfileId', 'in', profileIds)
    .where((eb) => eb.or([eb('Revoked', '=', 0), eb('IssueStatus', '!=', ISSUE.deletionSucceeded)]))
    .limit(1)
    .executeTakeFirst();
  if (busy) return false;
  await trx
    .updateTable('CardUserLinkChannel')
    .set({ TimeProfileId: null })
    .where('TimeProfileId', 'in', profileIds)
    .execute();
  return true;
}

/**
 * Per controller of the area, how many authorisations wait in each issue status, with the controller's
 * connection and sync as the gateway last stored them (the authorisation screen's sync panel) and, for the
 * pending ones whose last attempt failed, how many, the most attempts and when the next retry is due.
 */
export async function deviceStatusCounts(ctx: AreaContext): Promise<DeviceStatusCount[]> {
  const k = ctx.db.kysely;
  const [devices, counts, failing] = await Promise.all([
    k
      .selectFrom('AccessControlDevice as D')
      .leftJoin('AccessControlDeviceState as S', 'S.DeviceId', 'D.Id')
      .select([
        'D.Id',
        'D.Name',
        'D.SerialNumber',
        'D.Protocol',
        'D.Disabled',
        'S.Online',
        'S.LastSeenAt',
        'S.SyncState',
        'S.SyncPhase',
        'S.SyncDone',
        'S.SyncTotal',
        'S.SyncStartedAt',
        'S.SyncFinishedAt',
        'S.SyncError',
      ])
      .where('D.AreaId', '=', ctx.areaId)
      .orderBy('D.Name')
      .orderBy('D.Id')
      .execute(),
    k
      .selectFrom('CardUserLinkChannel')
      .select((eb) => ['DeviceId', 'IssueStatus', eb.fn.countAll().as('n')])
      .where('AreaId', '=', ctx.areaId)
      .groupBy(['DeviceId', 'IssueStatus'])
      .execute(),
    k
      .selectFrom('CardUserLinkChannel')
      .select((eb) => [
        'DeviceId',
        eb.fn.countAll().as('n'),
        eb.fn.max('SyncAttempts').as('attempts'),
        eb.fn.min('NextSyncAt').as('next'),
      ])
      .where('AreaId', '=', ctx.areaId)
      .where('IssueStatus', 'in', PENDING_SYNC)
      .where('SyncError', 'is not', null)
      .groupBy('DeviceId')
      .execute(),
  ]);
  const driven = gatewayRunning(ctx);
  return devices.map((d) => {
    const Counts = Object.fromEntries(enumValues(issueStatus).map((s) => [String(s), 0]));
    for (const c of counts) if (c.DeviceId === d.Id) Counts[String(c.IssueStatus)] = Number(c.n);
    const total = Object.values(Counts).reduce((a, b) => a + b, 0);
    const failed = failing.find((f) => f.DeviceId === d.Id);
    const state = controllerStateAsKnown(driven, {
      Online: d.Online === null ? null : Number(d.Online) === 1,
      SyncState: d.SyncState,
      SyncPhase: d.SyncPhase,
    });
    return {
      DeviceId: d.Id,
      DeviceName: d.Name,
      SerialNumber: d.SerialNumber,
      Protocol: d.Protocol,
      Disabled: Boolean(d.Disabled),
      Counts,
      Pending: PENDING_SYNC.reduce((sum, s) => sum + (Counts[String(s)] ?? 0), 0),
      Total: total,
      ...state,
      LastSeenAt: iso(d.LastSeenAt),
      SyncDone: Number(d.SyncDone ?? 0),
      SyncTotal: Number(d.SyncTotal ?? 0),
      SyncStartedAt: iso(d.SyncStartedAt),
      SyncFinishedAt: iso(d.SyncFinishedAt),
      SyncError: d.SyncError ?? null,
      Failing: Number(failed?.n ?? 0),
      SyncAttempts: Number(failed?.attempts ?? 0),
      NextSyncAt: iso(failed?.next ?? null),
    };
  });
}
