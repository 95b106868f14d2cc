import {
  PROFILE_SLOTS,
  budgetDetail,
  compileProfile,
  linkMakesLoop,
  slotsNeeded,
  weekdayMask,
  weekdaysOf,
  type HolidayDef,
  type PassProfilePart,
  type ProfileDef,
  type ProfileSegment,
  type ProfileSlotUse,
  type TimeProfileApi,
  type TimeProfileItem,
} from '@gatehouse/shared';
import type { z } from 'zod';
import type { AreaContext } from '../../../platform/context.ts';
import { AppError, fieldError } from '../../../platform/errors.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { ISSUE } from '../card-user-link-channel/lifecycle.ts';
import type { Trx } from '../common.ts';

type CreateBody = z.output<typeof TimeProfileApi.create.body>;
type UpdateBody = z.output<typeof TimeProfileApi.update.body>;

/**
 * Time profiles of an area (docs/access-control.md, "Time profiles and holidays"): stored as the area defines
 * them; compiled per controller by the rules plan (access-control-device/rules.ts). Every write that changes
 * what a controller holds counts its profile slots first and is refused (409) when one would not fit.
 */

/** Authorisations a controller must honour: their time profiles are what it must hold. */
const LIVE = [ISSUE.pendingIssue, ISSUE.pendingUpdate, ISSUE.issueSucceeded];

export function profileQuery(db: Trx) {
  return db
    .selectFrom('TimeProfile')
    .leftJoin('TimeProfile as L', 'L.Id', 'TimeProfile.LinkedProfileId')
    .select((eb) => [
      'TimeProfile.Id',
      'TimeProfile.AreaId',
      'TimeProfile.Name',
      'TimeProfile.StartDate',
      'TimeProfile.EndDate',
      'TimeProfile.Weekdays',
      'TimeProfile.Segments',
      'TimeProfile.LinkedProfileId',
      'L.Name as LinkedProfileName',
      'TimeProfile.NotOnHolidays',
      'TimeProfile.Remark',
      'TimeProfile.CreatedAt',
      'TimeProfile.UpdatedAt',
      eb
        .selectFrom('CardUserLinkChannel')
        .select((e) => e.fn.countAll().as('n'))
        .whereRef('CardUserLinkChannel.TimeProfileId', '=', 'TimeProfile.Id')
        .where('CardUserLinkChannel.Revoked', '=', 0)
        .as('GrantCount'),
    ])
    .where('TimeProfile.VisitorWindow', 'is', null);
}

const mapProfile = rowMapper<TimeProfileItem>({ flags: ['NotOnHolidays'] });

export function toProfileItem(row: Record<string, unknown>): TimeProfileItem {
  const item = mapProfile(row);
  return {
    ...item,
    Weekdays: weekdaysOf(Number(row.Weekdays)),
    Segments: JSON.parse(String(row.Segments)) as ProfileSegment[],
    LinkedProfileName: (row.LinkedProfileName as string | null) ?? null,
    Remark: (row.Remark as string | null) ?? null,
    GrantCount: Number(row.GrantCount ?? 0),
    Parts: 0,
  };
}

/** Each profile's parts with the area's holidays as they are now. */
export async function withParts(ctx: AreaContext, items: TimeProfileItem[]): Promise<TimeProfileItem[]> {
  const holidays = await areaHolidays(ctx.db.kysely, ctx.areaId);
  return items.map((item) => ({ ...item, Parts: compileProfile(item, holidays).length }));
}

/** The area's time profiles as the compiler takes them. */
export async function areaProfiles(db: Trx, areaId: number): Promise<Map<number, ProfileDef>> {
  const rows = await db
    .selectFrom('TimeProfile')
    .select([
      'Id',
      'Name',
      'StartDate',
      'EndDate',
      'Weekdays',
      'Segments',
      'LinkedProfileId',
      'NotOnHolidays',
    ])
    .where('AreaId', '=', areaId)
    .execute();
  return new Map(
    rows.map((r) => [
      r.Id,
      {
        ...r,
        Weekdays: weekdaysOf(r.Weekdays),
        Segments: JSON.parse(r.Segments) as ProfileSegment[],
        NotOnHolidays: Number(r.NotOnHolidays) === 1,
      },
    ]),
  );
}

export async function areaHolidays(db: Trx, areaId: number): Promise<HolidayDef[]> {
  return db
    .selectFrom('Holiday')
    .select(['Name', 'StartDate', 'EndDate'])
    .where('AreaId', '=', areaId)
    .execute();
}

/** The time profiles a controller's cards use now (live, not revoked authorisations). */
export async function usedProfiles(db: Trx, deviceId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('CardUserLinkChannel')
    .select('TimeProfileId')
    .distinct()
    .where('DeviceId', '=', deviceId)
    .where('TimeProfileId', 'is not', null)
    .where('Revoked', '=', 0)
    .where('IssueStatus', 'in', LIVE)
    .execute();
  return rows.map((r) => r.TimeProfileId!).sort((a, b) => a - b);
}

/** What a plan is counted with: the area's profiles and holidays, as stored or as a write is about to leave them. */
export interface PlanInputs {
  profiles: Map<number, ProfileDef>;
  holidays: HolidayDef[];
}

export async function planInputs(db: Trx, areaId: number): Promise<PlanInputs> {
  return { profiles: await areaProfiles(db, areaId), holidays: await areaHolidays(db, areaId) };
}

/** The area's WG controllers (only they hold time profiles). */
async function wgDevices(db: Trx, areaId: number, deviceIds?: number[]) {
  let query = db
    .selectFrom('AccessControlDevice')
    .select(['Id', 'Name'])
    .where('AreaId', '=', areaId)
    .where('Protocol', '=', 0);
  if (deviceIds) query = query.where('Id', 'in', deviceIds.length ? deviceIds : [0]);
  return query.orderBy('Name').orderBy('Id').execute();
}

/**
 * Refuses (409, before anything is stored or sent) a change after which a controller's cards would use time
 * profiles needing more than its 253 slots, naming the controller, the count and the profiles taking most.
 */
export async function assertProfileBudget(
  db: Trx,
  areaId: number,
  inputs: PlanInputs,
  deviceIds?: number[],
): Promise<void> {
  for (const device of await wgDevices(db, areaId, deviceIds)) {
    const count = slotsNeeded(await usedProfiles(db, device.Id), inputs.profiles, inputs.holidays);
    if (count.total > PROFILE_SLOTS)
      throw new AppError(409, 'accessControl.error.profileBudget', {
        device: device.Name,
        needed: count.total,
        max: PROFILE_SLOTS,
        detail: budgetDetail(count),
      });
  }
}

/** Per controller of the area: the slots its cards' time profiles take now. */
export async function profileSlotUse(ctx: AreaContext): Promise<ProfileSlotUse[]> {
  const inputs = await planInputs(ctx.db.kysely, ctx.areaId);
  const out: ProfileSlotUse[] = [];
  for (const device of await wgDevices(ctx.db.kysely, ctx.areaId)) {
    const used = await usedProfiles(ctx.db.kysely, device.Id);
    const count = slotsNeeded(used, inputs.profiles, inputs.holidays);
    out.push({ DeviceId: device.Id, DeviceName: device.Name, Used: count.total, Max: PROFILE_SLOTS });
  }
  return out;
}

export async function profileChoices(ctx: AreaContext): Promise<{ Id: number; Name: string }[]> {
  return ctx.db.kysely
    .selectFrom('TimeProfile')
    .select(['Id', 'Name'])
    .where('AreaId', '=', ctx.areaId)
    .where('VisitorWindow', 'is', null)
    .orderBy('Name')
    .execute();
}

/** A profile of a visitor pass window: not an operator's to link to, change or delete. */
async function isVisitorProfile(trx: Trx, profileId: number): Promise<boolean> {
  const row = await trx
    .selectFrom('TimeProfile')
    .select('VisitorWindow')
    .where('Id', '=', profileId)
    .executeTakeFirst();
  return row?.VisitorWindow != null;
}

/** The linked profile must be another of the area's, and the chain must not come back to this one. */
async function checkLink(trx: Trx, areaId: number, profileId: number, linked: number | null | undefined) {
  if (linked === null || linked === undefined) return;
  const profiles = await areaProfiles(trx, areaId);
  if (!profiles.has(linked) || (await isVisitorProfile(trx, linked)))
    throw fieldError('LinkedProfileId', 'accessControl.error.profileMissing');
  if (linkMakesLoop(profileId, linked, profiles))
    throw fieldError('LinkedProfileId', 'accessControl.error.profileLoop');
}

function columns(input: CreateBody | UpdateBody) {
  return {
    Name: input.Name,
    StartDate: input.StartDate,
    EndDate: input.EndDate,
    Weekdays: weekdayMask(input.Weekdays),
    Segments: JSON.stringify(input.Segments.map((s) => ({ Start: s.Start, End: s.End }))),
    LinkedProfileId: input.LinkedProfileId ?? null,
    NotOnHolidays: input.NotOnHolidays ? 1 : 0,
    Remark: input.Remark ?? null,
  };
}

export async function newProfile(input: CreateBody, ctx: AreaContext, trx: Trx) {
  // A new profile is used by no card yet: nothing to count, nothing a controller must hold.
  await checkLink(trx, ctx.areaId, 0, input.LinkedProfileId);
  return columns(input);
}

/** An edit changes what every controller using the profile (or a chain through it) holds: count, then mark. */
export async function changedProfile(input: UpdateBody, ctx: AreaContext, trx: Trx) {
  await checkLink(trx, ctx.areaId, input.Id, input.LinkedProfileId);
  const inputs = await planInputs(trx, ctx.areaId);
  inputs.profiles.set(input.Id, { ...input, Id: input.Id, ...defaults(input) });
  await assertProfileBudget(trx, ctx.areaId, inputs);
  return columns(input);
}

function defaults(input: UpdateBody) {
  return { LinkedProfileId: input.LinkedProfileId ?? null, NotOnHolidays: input.NotOnHolidays ?? false };
}

/**
 * The time profiles that carry a visitor pass window's hours (visitor-pass/service.ts), in the caller's
 * transaction: found by the window's key, else made (every weekday, holidays included, one segment each,
 * linked first to last; the last made first so each links to one that exists). Their `VisitorWindow` keeps them
 * off the profile screens and choices. Returns the head, the profile an authorisation names.
 */
export async function visitorProfile(
  trx: Trx,
  areaId: number,
  window: string,
  parts: readonly PassProfilePart[],
  now: number,
): Promise<number> {
  const found = await trx
    .selectFrom('TimeProfile')
    .select(['Id', 'Name'])
    .where('AreaId', '=', areaId)
    .where('VisitorWindow', '=', window)
    .execute();
  // The head is part 1: its name ends so (names are unique per area).
  const head = found.find((p) => p.Name.endsWith('#1'));
  if (head) return head.Id;
  let linked: number | null = null;
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!;
    const row = await trx
      .insertInto('TimeProfile')
      .values({
        AreaId: areaId,
        Name: `visitor ${window} #${i + 1}`,
        StartDate: part.StartDate,
        EndDate: part.EndDate,
        Weekdays: weekdayMask([1, 2, 3, 4, 5, 6, 7]),
        Segments: JSON.stringify([{ Start: part.Start, End: part.End }]),
        LinkedProfileId: linked,
        NotOnHolidays: 0,
        Remark: null,
        VisitorWindow: window,
        CreatedAt: now,
        UpdatedAt: now,
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    linked = row.Id;
  }
  return linked!;
}

/**
 * Drops the profiles of visitor-pass windows no pass needs any more (the expiry sweep): a window goes once no
 * authorisation uses it, or only revoked ones whose removal the controllers confirmed, which forget it first
 * (`release`, the authorisations' writer). A controller that still holds one in a slot holds a profile no
 * card names; its next rules pass reuses the slot.
 */
export async function dropVisitorProfiles(
  trx: Trx,
  release: (profileIds: number[]) => Promise<boolean>,
  limit = 50,
): Promise<number> {
  const rows = await trx
    .selectFrom('TimeProfile')
    .select(['Id', 'AreaId', 'VisitorWindow'])
    .where('VisitorWindow', 'is not', null)
    .orderBy('Id')
    .execute();
  const windows = new Map<string, number[]>();
  for (const r of rows) {
    const key = `${r.AreaId} ${r.VisitorWindow}`;
    windows.set(key, [...(windows.get(key) ?? []), r.Id]);
  }
  let dropped = 0;
  for (const ids of windows.values()) {
    if (dropped >= limit) break;
    // Nothing outside the window links to its profiles (an operator's cannot: checkLink), and no authorisation needs them.
    const linkedFrom = await trx
      .selectFrom('TimeProfile')
      .select('Id')
      .where('LinkedProfileId', 'in', ids)
      .where('Id', 'not in', ids)
      .limit(1)
      .executeTakeFirst();
    if (linkedFrom || !(await release(ids))) continue;
    await trx.updateTable('TimeProfile').set({ LinkedProfileId: null }).where('Id', 'in', ids).execute();
    await trx.deleteFrom('TimeProfile').where('Id', 'in', ids).execute();
    dropped++;
  }
  return dropped;
}
