import { defaultChannels, doorDirection, enumLabel, localTime, translate } from '@gatehouse/shared';
import type { Db } from '../../db/database.ts';
import type { DemoContext } from '../context.ts';
import { formatInstant } from '../../platform/exports/workbook.ts';
import { CHANGE, ISSUE, occupancyFromRecords } from '../../modules/access-control/index.ts';
import { prng, type Random } from '../random.ts';
import { bulkInsert } from './bulk.ts';
import {
  DEVICES,
  FAULTS,
  HOLDER_DEPARTMENTS,
  MINORITY_NATIONS,
  NOTES,
  POOL_SERIALS,
  REGIONS,
  chineseName,
  citizenIdFor,
  mobile,
  serialFor,
} from './fixtures.ts';
import { seedSwipes, type SwipeHolder } from './swipes.ts';

/** First UDP port of the demo's simulated controllers unless DEMO_WG_PORTS says otherwise. */
const DEMO_WG_PORT_BASE = 61000;

const DAY = 86_400_000;
const ZONE = 'Asia/Shanghai';
const FULL_HOLDERS = [1200, 1000];
const FULL_SWIPES = 200_000;
const SWIPE_SHARE = [0.55, 0.45];
/** People who came in within the last hour and a half as the demo opens, besides what the history leaves inside. */
const INSIDE = [8, 5];

type Row = Record<string, string | number | null>;

interface ChannelRow {
  Id: number;
  DeviceId: number;
  Name: string;
  DoorNumber: number;
  Direction: number;
}

interface DeviceRow {
  Id: number;
  Name: string;
  seed: (typeof DEVICES)[number][number];
  channels: ChannelRow[];
}

/** As change records show instants (in the demo areas' time zone). */
const fmt = (ms: number) => formatInstant(new Date(ms).toISOString(), ZONE);

/** Operator credited with the demo's changes: the demo access-control administrator if present. */
async function demoOperator(db: Db) {
  const user = await db.kysely
    .selectFrom('AppUser')
    .select(['Id', 'Name'])
    .where('UserName', 'in', ['acadmin', 'admin'])
    .orderBy('UserName')
    .executeTakeFirst();
  return { OperatorId: user?.Id ?? null, OperatorName: user?.Name ?? 'admin' };
}

async function seedDevices(db: Db, ctx: DemoContext, area: number, areaId: number): Promise<DeviceRow[]> {
  const k = db.kysely;
  const out: DeviceRow[] = [];
  for (const [index, seed] of DEVICES[area]!.entries()) {
    const stamps = { CreatedAt: ctx.now - 400 * DAY, UpdatedAt: ctx.now - 30 * DAY };
    const device = await k
      .insertInto('AccessControlDevice')
      .values({
        AreaId: areaId,
        SerialNumber: serialFor(area, index, seed.type, !!seed.other),
        Name: seed.name,
        Protocol: seed.other ? 1 : 0,
        Type: seed.type,
        // Loopback: `npm start` runs a simulated controller for each demo device on this port (docs/devices.md).
        Ip: seed.other ? `192.168.${10 + area}.${20 + index}` : '127.0.0.1',
        Port: seed.other ? null : (ctx.wgPortBase ?? DEMO_WG_PORT_BASE) + area * 100 + index,
        Location: seed.location,
        Remark: seed.other ? '第三方人脸识别闸机，由其平台核验，无需下发' : null,
        AssignedAt: ctx.now - 400 * DAY,
        ...stamps,
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    const channels = defaultChannels(seed.type).map((c) => ({
      AreaId: areaId,
      DeviceId: device.Id,
      DoorNumber: c.DoorNumber,
      Direction: c.Direction,
      Name: translate('zh', 'accessControl.channel.defaultName', {
        door: c.DoorNumber,
        direction: enumLabel('zh', doorDirection, c.Direction),
      }),
      ReaderType: seed.other ? 0 : 3,
      Remark: null,
      ...stamps,
    }));
    await k.insertInto('AccessControlChannel').values(channels).execute();
    const rows = await k
      .selectFrom('AccessControlChannel')
      .select(['Id', 'DeviceId', 'Name', 'DoorNumber', 'Direction'])
      .where('DeviceId', '=', device.Id)
      .orderBy('Id')
      .execute();
    out.push({ Id: device.Id, Name: seed.name, seed, channels: rows });
  }
  return out;
}

interface HolderPlan extends SwipeHolder {
  index: number;
  citizenId: string;
  phone: string;
  nation: number;
  department: { Id: number; Name: string } | undefined;
  group: { Id: number; Name: string } | undefined;
  type: { Id: number; Name: string } | undefined;
  createdAt: number;
  cardCount: number;
  remark: string | null;
}

/**
 * The planned holders of an area. The first few are fixed so every issue status shows at any volume:
 * 0 added two days ago (pending issue), 1 just changed (pending update), 2 and 3 disabled (pending
 * deletion, deletion succeeded), 4 and 5 with a revoked authorisation, 6 without a card.
 */
function planHolders(
  r: Random,
  ctx: DemoContext,
  area: number,
  count: number,
  org: {
    departments: { Id: number; Name: string }[];
    groups: { Id: number; Name: string }[];
    types: { Id: number; Name: string }[];
  },
): HolderPlan[] {
  const now = ctx.now;
  const plans: HolderPlan[] = [];
  for (let index = 0; index < count; index++) {
    const recent = index === 0 || (index > 6 && r.chance(0.01));
    const createdAt = recent
      ? now - r.int(1, 2) * DAY - r.int(0, DAY)
      : now - r.int(95, 700) * DAY - r.int(0, DAY);
    const expired = index > 6 && r.chance(0.04);
    // Residents and staff are extended as their terms run out: only a few have lapsed.
    const validTo = expired
      ? Math.max(createdAt + 30 * DAY, now - r.int(1, 60) * DAY)
      : Math.max(createdAt + 365 * DAY, now + r.int(20, 900) * DAY);
    const disabled = index === 2 || index === 3 || (index > 6 && r.chance(0.03));
    const birth = new Date(Date.UTC(r.int(1955, 2004), r.int(0, 11), r.int(1, 28)));
    const group = r.chance(0.9) ? r.pick(org.groups) : undefined;
    const placement = HOLDER_DEPARTMENTS[area];
    const staff = !!group && !!placement?.staffGroups.includes(group.Name);
    const departments = placement
      ? org.departments.filter((d) => (staff ? placement.staff : placement.residents).includes(d.Name))
      : org.departments;
    plans.push({
      index,
      name: chineseName(r),
      citizenId: citizenIdFor(REGIONS[area]!, birth, index),
      phone: mobile(r),
      nation: r.chance(0.92) ? 1 : r.pick(MINORITY_NATIONS),
      department: departments.length && r.chance(0.95) ? r.pick(departments) : undefined,
      group,
      type: r.chance(0.9) ? r.pick(org.types) : undefined,
      createdAt,
      validFrom: createdAt,
      validTo,
      disabledAt: disabled ? now - r.int(2, 20) * DAY : null,
      cardCount: index === 6 || (index > 6 && r.chance(0.03)) ? 0 : r.chance(0.1) ? 2 : 1,
      remark: r.chance(0.05) ? r.pick(['长期租户', '物业员工家属', '访客登记转长期', '临时施工人员']) : null,
      id: 0,
      cards: [],
      channels: [],
    });
  }
  return plans;
}

/** Issue status of a granted authorisation, by holder and device. */
/**
 * Whether the demo's story has the controller holding (or having held) an authorisation of this status: the
 * pending issues are new grants no sync has reached; deletions confirmed and no-sync rows are on no device.
 */
function sentToDevice(status: number): number {
  return status === ISSUE.pendingIssue || status === ISSUE.deletionSucceeded || status === ISSUE.noIssueNeeded
    ? 0
    : 1;
}

function statusFor(r: Random, h: HolderPlan, device: DeviceRow, now: number): number {
  if (device.seed.other) return ISSUE.noIssueNeeded;
  if (h.disabledAt !== null)
    return h.index === 2
      ? ISSUE.pendingDeletion
      : h.index === 3
        ? ISSUE.deletionSucceeded
        : r.chance(0.5)
          ? ISSUE.pendingDeletion
          : ISSUE.deletionSucceeded;
  if (h.index === 0 || h.createdAt > now - 3 * DAY) return ISSUE.pendingIssue;
  if (h.index === 1) return ISSUE.pendingUpdate;
  const u = r.next();
  return u < 0.03 ? ISSUE.pendingUpdate : u < 0.05 ? ISSUE.pendingIssue : ISSUE.issueSucceeded;
}

/**
 * Authorisations: the gates for everyone, a building by holder, the third-party gate for some. Marks each
 * holder's authorised channels (h.channels), which the swipes draw from; draws from `r` as seedArea did.
 */
function planAuthorisations(
  r: Random,
  areaId: number,
  plans: HolderPlan[],
  devices: Awaited<ReturnType<typeof seedDevices>>,
  now: number,
): Row[] {
  const gates = devices.filter((d) => d.seed.gate);
  const buildings = devices.filter((d) => !d.seed.gate && !d.seed.other);
  const other = devices.find((d) => d.seed.other);
  const auths: Row[] = [];
  for (const h of plans) {
    if (h.cards.length === 0) continue;
    const granted = [...gates, buildings[h.index % buildings.length]!];
    if (other && (h.index < 8 || r.chance(0.3))) granted.push(other);
    const custom = r.chance(0.05);
    for (const device of granted) {
      const status = statusFor(r, h, device, now);
      for (const channel of device.channels) {
        auths.push({
          AreaId: areaId,
          CardUserId: h.id,
          ChannelId: channel.Id,
          DeviceId: device.Id,
          ValidFrom: null,
          ValidTo: custom ? h.validTo - 30 * DAY : null,
          IssueStatus: status,
          Revoked: 0,
          SentToDevice: sentToDevice(status),
          CreatedAt: h.createdAt,
          UpdatedAt: status === ISSUE.issueSucceeded ? h.createdAt : now - r.int(0, 2) * DAY,
        });
        if (status !== ISSUE.pendingDeletion && status !== ISSUE.deletionSucceeded)
          h.channels.push({ device, channel });
      }
    }
    const revoked = h.index === 4 || h.index === 5 || (h.index > 6 && r.chance(0.02));
    const spare = buildings.find((d) => !granted.includes(d));
    if (revoked && spare) {
      const channel = spare.channels[0]!;
      const revokedStatus = h.index === 4 || r.chance(0.4) ? ISSUE.pendingDeletion : ISSUE.deletionSucceeded;
      auths.push({
        AreaId: areaId,
        CardUserId: h.id,
        ChannelId: channel.Id,
        DeviceId: spare.Id,
        ValidFrom: null,
        ValidTo: null,
        IssueStatus: revokedStatus,
        Revoked: 1,
        SentToDevice: sentToDevice(revokedStatus),
        CreatedAt: h.createdAt,
        UpdatedAt: now - r.int(0, 30) * DAY,
      });
    }
  }
  return auths;
}

async function seedArea(db: Db, ctx: DemoContext, r: Random, area: number, operator: Row): Promise<void> {
  const areaId = ctx.areaIds[area];
  if (areaId === undefined) return;
  const k = db.kysely;
  const now = ctx.now;
  const devices = await seedDevices(db, ctx, area, areaId);
  const [departments, groups, types, staff] = await Promise.all([
    k.selectFrom('Department').select(['Id', 'Name']).where('AreaId', '=', areaId).orderBy('Id').execute(),
    k.selectFrom('PeopleGroup').select(['Id', 'Name']).where('AreaId', '=', areaId).orderBy('Id').execute(),
    k.selectFrom('PeopleType').select(['Id', 'Name']).where('AreaId', '=', areaId).orderBy('Id').execute(),
    k.selectFrom('OperatorStaff').select(['Id', 'Name']).where('AreaId', '=', areaId).orderBy('Id').execute(),
  ]);
  const count = Math.max(60, Math.round(FULL_HOLDERS[area]! * ctx.scale));
  const plans = planHolders(r, ctx, area, count, { departments, groups, types });

  await bulkInsert(
    db,
    ctx.sqlite,
    'CardUser',
    plans.map((h) => ({
      AreaId: areaId,
      Name: h.name,
      Phone: h.phone,
      CitizenId: h.citizenId,
      Nation: h.nation,
      DepartmentId: h.department?.Id ?? null,
      PeopleGroupId: h.group?.Id ?? null,
      PeopleTypeId: h.type?.Id ?? null,
      ValidFrom: h.validFrom,
      ValidTo: h.validTo,
      Disabled: h.disabledAt === null ? 0 : 1,
      Remark: h.remark,
      CreatedAt: h.createdAt,
      UpdatedAt: h.disabledAt ?? h.createdAt,
    })),
  );
  const ids = new Map(
    (await k.selectFrom('CardUser').select(['Id', 'CitizenId']).where('AreaId', '=', areaId).execute()).map(
      (h) => [h.CitizenId, h.Id],
    ),
  );
  for (const h of plans) h.id = ids.get(h.citizenId)!;

  // Cards: the holders' first, then a stock of free cards for new holders.
  const base = [31_000_000, 52_000_000][area]!;
  let next = 0;
  const cards: Row[] = [];
  const card = (holder: HolderPlan | null, createdAt: number) => {
    const CardNumber = String(base + next++ * 7).padStart(10, '0');
    cards.push({
      AreaId: areaId,
      CardNumber,
      CardType: r.chance(0.7) ? 3 : 1,
      CardUserId: holder?.id ?? null,
      Remark: null,
      CreatedAt: createdAt,
      UpdatedAt: createdAt,
    });
    return CardNumber;
  };
  for (const h of plans) for (let c = 0; c < h.cardCount; c++) h.cards.push(card(h, h.createdAt - DAY));
  for (let i = 0; i < Math.max(20, Math.round(count * 0.15)); i++) card(null, now - r.int(10, 200) * DAY);
  await bulkInsert(db, ctx.sqlite, 'Card', cards);

  const auths = planAuthorisations(r, areaId, plans, devices, now);
  await bulkInsert(db, ctx.sqlite, 'CardUserLinkChannel', auths);

  await seedHolderHistory(db, ctx, r, areaId, plans, operator);
  await seedSwipes(db, ctx, r, {
    areaId,
    count: Math.max(1, Math.round(FULL_SWIPES * ctx.scale * SWIPE_SHARE[area]!)),
    holders: plans.filter((h) => h.channels.length > 0),
    devices,
    inside: INSIDE[area],
  });
  await seedOccupancy(db, ctx, areaId);
  await seedFaults(db, ctx, r, areaId, devices, staff, operator);
}

/**
 * Who is inside (issue 31): the ingest keeps it for every swipe Gatehouse stores, but the demo writes its history
 * around the ingest, so it is read from the last day and a half of those records. The area's reset hour is set
 * twelve hours from the seed's local hour: the people inside as the demo opens stay counted for half a day whenever
 * it is seeded (a demo seeded just before the default 04:00 would open on an empty muster screen).
 */
async function seedOccupancy(db: Db, ctx: DemoContext, areaId: number): Promise<void> {
  const hour = localTime(ctx.now, ZONE).hour;
  await db.kysely
    .insertInto('OccupancySetting')
    .values({ AreaId: areaId, ResetHour: (hour + 12) % 24, UpdatedAt: ctx.now, UpdatedBy: null })
    .execute();
  await occupancyFromRecords(db.kysely, areaId, ctx.now - 36 * 3_600_000);
}

/** Change records (add, modify, disable, enable, extension) and renewal records of the planned holders. */
async function seedHolderHistory(
  db: Db,
  ctx: DemoContext,
  r: Random,
  areaId: number,
  plans: HolderPlan[],
  operator: Row,
): Promise<void> {
  const changes: Row[] = [];
  const renewals: Row[] = [];
  const record = (h: HolderPlan, type: number, at: number, detail: unknown[] | null) =>
    changes.push({
      AreaId: areaId,
      CardUserId: h.id,
      HolderName: h.name,
      ChangeType: type,
      Detail: detail ? JSON.stringify(detail) : null,
      ...operator,
      At: at,
    });
  for (const h of plans) {
    const added = {
      Name: h.name,
      Phone: h.phone,
      CitizenId: h.citizenId,
      Nation: String(h.nation),
      Department: h.department?.Name ?? null,
      PeopleGroup: h.group?.Name ?? null,
      PeopleType: h.type?.Name ?? null,
      Cards: h.cards.length ? h.cards.join(',') : null,
      ValidFrom: fmt(h.validFrom),
      ValidTo: fmt(h.validTo),
      Remark: h.remark,
    };
    record(
      h,
      CHANGE.add,
      h.createdAt,
      Object.entries(added)
        .filter(([, v]) => v !== null)
        .map(([Field, After]) => ({ Field, Before: null, After })),
    );
    const life = Math.max(DAY, ctx.now - h.createdAt);
    if (h.index === 1 || r.chance(0.1)) {
      record(h, CHANGE.modify, h.createdAt + Math.floor(life * r.next()), [
        { Field: 'Phone', Before: mobile(r), After: h.phone },
      ]);
    }
    if (h.disabledAt !== null) record(h, CHANGE.disable, h.disabledAt, null);
    else if (r.chance(0.02)) {
      const off = h.createdAt + Math.floor(life * r.next() * 0.8);
      record(h, CHANGE.disable, off, null);
      record(h, CHANGE.enable, Math.min(ctx.now - 1000, off + r.int(1, 10) * DAY), null);
    }
    if (h.disabledAt === null && h.validTo - 365 * DAY > h.validFrom && r.chance(0.08)) {
      const old = h.validTo - 365 * DAY;
      const at = Math.min(ctx.now - r.int(1, 30) * DAY, old - r.int(1, 20) * DAY);
      if (at > h.createdAt) {
        record(h, CHANGE.extend, at, [{ Field: 'ValidTo', Before: fmt(old), After: fmt(h.validTo) }]);
        renewals.push({
          AreaId: areaId,
          CardUserId: h.id,
          HolderName: h.name,
          OldValidTo: old,
          NewValidTo: h.validTo,
          Remark: r.chance(0.5) ? r.pick(['租约续签', '年度续期', '合同延期']) : null,
          ...operator,
          At: at,
        });
      }
    }
  }
  await bulkInsert(db, ctx.sqlite, 'ChangeRecord', changes);
  await bulkInsert(db, ctx.sqlite, 'RenewalRecord', renewals);
}

/** A dozen fault reports per area, open, in progress and resolved. */
async function seedFaults(
  db: Db,
  ctx: DemoContext,
  r: Random,
  areaId: number,
  devices: DeviceRow[],
  staff: { Id: number; Name: string }[],
  operator: Row,
): Promise<void> {
  const rows: Row[] = [];
  for (let i = 0; i < 12; i++) {
    const device = r.pick(devices);
    const channel = r.chance(0.7) ? r.pick(device.channels) : undefined;
    const handler = staff.length && i % 3 !== 0 ? r.pick(staff) : undefined;
    const status = i % 3;
    const reportedAt = ctx.now - r.int(1, 80) * DAY - r.int(0, DAY);
    const description = r.pick(FAULTS);
    const reporter = String(operator.OperatorName);
    const history = [
      {
        At: new Date(reportedAt).toISOString(),
        Status: 0,
        Note: description,
        OperatorName: reporter,
        HandlerName: handler?.Name ?? null,
      },
    ];
    const progressAt = reportedAt + r.int(1, 12) * 3_600_000;
    if (status >= 1)
      history.push({
        At: new Date(progressAt).toISOString(),
        Status: 1,
        Note: NOTES[0]!,
        OperatorName: reporter,
        HandlerName: handler?.Name ?? null,
      });
    const resolvedAt = progressAt + r.int(1, 48) * 3_600_000;
    if (status === 2)
      history.push({
        At: new Date(resolvedAt).toISOString(),
        Status: 2,
        Note: r.pick(NOTES.slice(1)),
        OperatorName: reporter,
        HandlerName: handler?.Name ?? null,
      });
    rows.push({
      AreaId: areaId,
      DeviceId: device.Id,
      DeviceName: device.Name,
      ChannelId: channel?.Id ?? null,
      ChannelName: channel?.Name ?? null,
      Description: description,
      Status: status,
      HandlerId: handler?.Id ?? null,
      HandlerName: handler?.Name ?? null,
      ReporterId: operator.OperatorId ?? null,
      ReporterName: reporter,
      History: JSON.stringify(history),
      ReportedAt: reportedAt,
      ResolvedAt: status === 2 ? resolvedAt : null,
      UpdatedAt: status === 2 ? resolvedAt : status === 1 ? progressAt : reportedAt,
    });
  }
  await bulkInsert(db, ctx.sqlite, 'FailureDeclarationRecord', rows);
}

/**
 * Demo data of the access-control module: per area 10+ controllers with their doors, 1,000+ card holders
 * with cards, authorisations in every issue status, their change and renewal records, fault reports, and
 * 200,000 swipe records over the last 90 days (at scale 1); plus a pool of unassigned devices and cards.
 */
export async function seedAccessControlDemo(db: Db, ctx: DemoContext): Promise<void> {
  const r = prng(20_261_101);
  const operator = await demoOperator(db);
  const stamps = { CreatedAt: ctx.now - 10 * DAY, UpdatedAt: ctx.now - 10 * DAY };
  await db.kysely
    .insertInto('AccessControlDevice')
    .values(
      POOL_SERIALS.map((p) => ({
        AreaId: null,
        SerialNumber: p.serial,
        Name: p.serial,
        Protocol: 0,
        Type: p.type,
        Ip: null,
        Port: null,
        Location: null,
        Remark: '新到货，待分配',
        AssignedAt: null,
        ...stamps,
      })),
    )
    .execute();
  await bulkInsert(
    db,
    ctx.sqlite,
    'Card',
    Array.from({ length: 100 }, (_, i) => ({
      AreaId: null,
      CardNumber: String(9_900_000 + i).padStart(10, '0'),
      CardType: 3,
      CardUserId: null,
      Remark: null,
      ...stamps,
    })),
  );
  for (let area = 0; area < DEVICES.length; area++) await seedArea(db, ctx, r, area, operator);
}
