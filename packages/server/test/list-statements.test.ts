import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import type { z } from 'zod';
import { systemActor, type ServiceContext } from '../src/platform/context.ts';
import { invalidateCounts } from '../src/platform/count-cache.ts';
import { setListStatements, shapedRows } from '../src/platform/list-statements.ts';
import { countRows, listResource, type ResourceDef } from '../src/platform/resource-store.ts';
import { routeTable } from '../src/routes.ts';
import { login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';
import { makeUser } from './support/users.ts';

/**
 * List statements are compiled once per shape and bound per call (platform/list-statements.ts). These tests
 * prove a kept statement never answers a caller with another caller's query: every reply equals the reply
 * built without the cache, for requests that differ in one part of their shape at a time (area, caller,
 * filter present or not, filter value, sort key, order, page size, page, time range), asked in an order where
 * each is served right after its neighbours filled the cache.
 */

interface Request {
  url: string;
  token: string;
  area: number;
  query?: Record<string, string | number | boolean>;
}

type Replies = Map<Request, string>;

async function ask(h: Harness, request: Request): Promise<string> {
  const reply = await h.app.inject({
    method: 'GET',
    url: request.url,
    headers: { authorization: `Bearer ${request.token}`, 'x-area-id': String(request.area) },
    query: Object.fromEntries(Object.entries(request.query ?? {}).map(([k, v]) => [k, String(v)])),
  });
  return `${reply.statusCode} ${reply.body}`;
}

/**
 * The replies built afresh (the reference), then with the cache: forwards, which fills it, backwards and
 * forwards again. Kept totals are dropped before each pass, so the count statements run in every pass too.
 */
async function compare(h: Harness, requests: Request[]): Promise<{ fresh: Replies; kept: Replies[] }> {
  setListStatements({ cache: false });
  invalidateCounts();
  const fresh: Replies = new Map();
  for (const request of requests) fresh.set(request, await ask(h, request));
  setListStatements({ cache: true });
  const kept: Replies[] = [];
  for (const order of [requests, [...requests].reverse(), requests]) {
    invalidateCounts();
    const replies: Replies = new Map();
    for (const request of order) replies.set(request, await ask(h, request));
    kept.push(replies);
  }
  return { fresh, kept };
}

afterEach(() => setListStatements({ cache: true, check: false }));

describeEachDb('list statements kept per shape', (h) => {
  it('answer every caller, area, filter, sort, size, page and range with its own rows', async () => {
    const { db, clock } = h();
    const k = db.kysely;
    const admin = await login(h().app, 'admin', ADMIN_PASSWORD);
    // An administrator of users in area 1 only: the areas a user list shows are the caller's own.
    const oneArea = await makeUser(h(), 'stmtusers', ['AppUser/Admin'], [1]);
    const now = clock.now();

    // Staff in both areas whose names, types and flags tell the filters apart.
    for (const AreaId of [1, 2])
      for (let i = 0; i < 9; i++)
        await k
          .insertInto('OperatorStaff')
          .values({
            AreaId,
            Name: `${i % 2 ? 'alpha' : 'beta'}-${AreaId}-${i}`,
            StaffType: i % 3,
            Phone: null,
            Email: null,
            WechatOpenId: null,
            Remark: null,
            Disabled: i % 4 === 0 ? 1 : 0,
            CreatedAt: now - i * 60_000,
            UpdatedAt: now,
          })
          .execute();
    // Sessions still running beside ended ones: `Open` changes the SQL (is / is not null) and no parameter.
    // One running session per socket at most, on sockets of area 1 with none running.
    const sockets = await k
      .selectFrom('ChargeEquipment')
      .select('Id')
      .where('AreaId', '=', 1)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('ChargeRecord')
              .select('ChargeRecord.Id')
              .whereRef('ChargeRecord.ChargeEquipmentId', '=', 'ChargeEquipment.Id')
              .where('ChargeRecord.EndAt', 'is', null),
          ),
        ),
      )
      .orderBy('Id')
      .limit(3)
      .execute();
    expect(sockets).toHaveLength(3);
    for (const [i, socket] of sockets.entries())
      await k
        .insertInto('ChargeRecord')
        .values({
          AreaId: 1,
          ChargeEquipmentId: socket.Id,
          CardNumber: `OPEN00${i}`,
          StartAt: now - (i + 1) * 600_000,
          EndAt: null,
          EnergyWh: 10,
          StopReason: null,
        })
        .execute();
    const socket = sockets[0]!;
    const roles = await k
      .selectFrom('UserRole')
      .select('RoleId')
      .groupBy('RoleId')
      .orderBy('RoleId')
      .limit(2)
      .execute();
    expect(roles).toHaveLength(2);

    const staff = (area: number, query: Request['query'] = {}, token = admin): Request => ({
      url: '/api/OperatorStaff',
      token,
      area,
      query: { PageSize: 4, ...query },
    });
    const users = (area: number, query: Request['query'] = {}, token = admin): Request => ({
      url: '/api/AppUser',
      token,
      area,
      query: { PageSize: 5, ...query },
    });
    const sessions = (query: Request['query'] = {}): Request => ({
      url: '/api/ChargeRecord',
      token: admin,
      area: 1,
      query: { PageSize: 4, ...query },
    });
    const day = 86_400_000;
    // Each group differs in one part of the shape; the cache must keep every member apart.
    const groups: Record<string, Request[]> = {
      area: [staff(1), staff(2)],
      'filter given or not': [staff(1), staff(1, { Disabled: true })],
      'filter value': [staff(1, { Keyword: 'alpha' }), staff(1, { Keyword: 'beta' })],
      'enumeration value': [staff(1, { StaffType: 0 }), staff(1, { StaffType: 1 })],
      'flag value': [staff(1, { Disabled: true }), staff(1, { Disabled: false })],
      'sort key': [staff(1, { SortField: 'Name' }), staff(1, { SortField: 'CreatedAt' })],
      order: [staff(1, { SortOrder: 'asc' }), staff(1, { SortOrder: 'desc' })],
      'page size': [staff(1, { PageSize: 3 }), staff(1, { PageSize: 5 })],
      page: [staff(1, { PageIndex: 1 }), staff(1, { PageIndex: 2 }), staff(1, { PageIndex: 3 })],
      'users area (the query joins on it)': [users(1), users(2)],
      'users page': [users(1, { PageIndex: 1 }), users(1, { PageIndex: 2 })],
      // Roles and areas of a page are read by the users' ids: one statement per number of ids.
      'users page size': [users(1, { PageSize: 3 }), users(1, { PageSize: 6 })],
      'users role': [users(1, { RoleId: roles[0]!.RoleId }), users(1, { RoleId: roles[1]!.RoleId })],
      // The same users' statements, another caller's areas.
      caller: [users(1), users(1, {}, oneArea)],
      'SQL without parameters': [sessions({ Open: true }), sessions({ Open: false })],
      'range start given or not': [
        sessions({ SortOrder: 'asc' }),
        sessions({ SortOrder: 'asc', StartTime: now - 2 * day }),
      ],
      'range end given or not': [sessions(), sessions({ EndTime: now - day })],
      'range bounds': [
        sessions({ StartTime: now - 3 * day, EndTime: now - 2 * day }),
        sessions({ StartTime: now - 2 * day, EndTime: now }),
      ],
      'one socket (another plan)': [sessions(), sessions({ ChargeEquipmentId: socket.Id })],
      'sessions page': [sessions({ PageIndex: 1 }), sessions({ PageIndex: 2 })],
      // A page's rows are read by their ids (`in (?, ?, …)`): one statement per number of ids.
      'sessions page size': [sessions({ PageSize: 3 }), sessions({ PageSize: 5 })],
    };
    const requests = Object.values(groups).flat();
    const { fresh, kept } = await compare(h(), requests);

    // Each group's members answer differently, so a statement that served one for another would show.
    for (const [name, members] of Object.entries(groups)) {
      const answers = members.map((r) => fresh.get(r)!);
      for (const answer of answers) expect(answer.startsWith('200 '), `${name}: ${answer}`).toBe(true);
      expect(new Set(answers).size, `${name}: the requests must answer differently`).toBe(members.length);
    }
    for (const replies of kept)
      for (const request of requests)
        expect(
          replies.get(request),
          `${request.url} ${JSON.stringify(request.query)} in area ${request.area}`,
        ).toBe(fresh.get(request));
  });

  it('answer every declared list, area, sort key, order and page as a fresh build does', async () => {
    const admin = await login(h().app, 'admin', ADMIN_PASSWORD);
    const docs = await h().app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { authorization: `Bearer ${admin}` },
    });
    type Parameter = { name: string; in: string; schema?: { enum?: string[] } };
    const paths = (docs.json() as { paths: Record<string, { get?: { parameters?: Parameter[] } }> }).paths;
    const requests: Request[] = [];
    for (const [url, item] of Object.entries(paths)) {
      const parameters = item.get?.parameters ?? [];
      const sorts = parameters.find((p) => p.in === 'query' && p.name === 'SortField')?.schema?.enum;
      if (!sorts || !parameters.some((p) => p.name === 'PageIndex')) continue;
      for (const area of [1, 2])
        for (const SortField of sorts)
          for (const SortOrder of ['asc', 'desc'])
            for (const PageIndex of [1, 2])
              requests.push({
                url,
                token: admin,
                area,
                query: { SortField, SortOrder, PageIndex, PageSize: 3 },
              });
    }
    expect(requests.length).toBeGreaterThan(200);
    // On every hit the kept statement is also compared with a fresh build: any difference is a 500.
    setListStatements({ check: true });
    const { fresh, kept } = await compare(h(), requests);
    for (const replies of kept)
      for (const request of requests)
        expect(
          replies.get(request),
          `${request.url} ${JSON.stringify(request.query)} in area ${request.area}`,
        ).toBe(fresh.get(request));
  }, 180_000);

  it("never read another request's uncommitted rows", async () => {
    const { db, clock } = h();
    const route = routeTable.find((r) => r.method === 'GET' && r.url === '/api/OperatorStaff')!;
    const ctx: ServiceContext = { db, clock, lang: 'zh', actor: systemActor('lister'), areaId: 1 };
    const newest = () =>
      route.handler(
        { query: route.query.parse({ SortOrder: 'desc', PageSize: 3 }), body: undefined, params: undefined },
        ctx as never,
      ) as Promise<{ Items: { Name: string }[] }>;
    await newest(); // the statement is kept from here on
    let listing: Promise<{ Items: { Name: string }[] }> | undefined;
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await trx
          .insertInto('OperatorStaff')
          .values({
            AreaId: 1,
            Name: 'uncommitted',
            StaffType: 0,
            Phone: null,
            Email: null,
            WechatOpenId: null,
            Remark: null,
            Disabled: 0,
            CreatedAt: clock.now(),
            UpdatedAt: clock.now(),
          })
          .execute();
        // Another request lists while this transaction is open (on SQLite it holds the one connection).
        listing = newest();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await listing!).Items.map((item) => item.Name)).not.toContain('uncommitted');
  });

  it('keep apart what only other declarations would mix, and build afresh what no key can hold', async () => {
    const { db, clock } = h();
    for (const AreaId of [1, 2])
      for (let i = 0; i < 6; i++)
        await db.kysely
          .insertInto('OperatorStaff')
          .values({
            AreaId,
            Name: `own-${AreaId}-${i}`,
            StaffType: i % 3,
            Phone: null,
            Email: null,
            WechatOpenId: null,
            Remark: null,
            Disabled: 0,
            CreatedAt: clock.now(),
            UpdatedAt: clock.now(),
          })
          .execute();
    type Caller = ServiceContext & { staffType: number };
    // A list scoped by something of the caller that no statement key holds.
    const def: ResourceDef<Record<string, unknown>, z.ZodType, z.ZodType, Caller, true> = {
      name: 'StaffOfCaller',
      table: 'OperatorStaff',
      area: true,
      query: (k, ctx) =>
        k
          .selectFrom('OperatorStaff')
          .select(['OperatorStaff.Id', 'OperatorStaff.StaffType'])
          .where('OperatorStaff.StaffType', '=', ctx.staffType),
      toItem: (row) => row,
      sorts: { Id: 'OperatorStaff.Id' },
    };
    const caller = (staffType: number): Caller => ({
      db,
      clock,
      lang: 'zh',
      actor: systemActor(`caller-${staffType}`),
      areaId: 1,
      staffType,
    });
    for (const staffType of [0, 1, 2, 0, 1, 2]) {
      const page = await listResource(def, caller(staffType), { PageIndex: 1, PageSize: 50 });
      expect(page.Items.length).toBeGreaterThan(0);
      expect(page.Items.every((item) => item.StaffType === staffType)).toBe(true);
    }

    // A page chosen on the table whose rows' query reads the area: the rows' statement is the area's own.
    const asked: ResourceDef<Record<string, unknown>, z.ZodType, z.ZodType, ServiceContext, true> = {
      name: 'StaffAskedFrom',
      table: 'OperatorStaff',
      area: true,
      query: (k, ctx) =>
        k
          .selectFrom('OperatorStaff')
          .select(['OperatorStaff.Id', sql<number>`cast(${ctx.areaId} as integer)`.as('AskedFrom')]),
      toItem: (row) => row,
      sorts: { Id: 'OperatorStaff.Id' },
      pageOnTable: {},
    };
    const inArea = (areaId: number): ServiceContext => ({ ...caller(0), areaId });
    for (const areaId of [1, 2, 1, 2]) {
      const page = await listResource(asked, inArea(areaId), { PageIndex: 1, PageSize: 5 });
      expect(page.Items.map((item) => item.AskedFrom)).toEqual([areaId, areaId, areaId, areaId, areaId]);
    }
    // A capped count and an exact one of the same list are two statements.
    setListStatements({ check: true });
    const all = await db.kysely
      .selectFrom('OperatorStaff')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('AreaId', '=', 1)
      .executeTakeFirstOrThrow();
    expect(Number(all.n)).toBeGreaterThan(3);
    for (let round = 0; round < 2; round++) {
      invalidateCounts();
      expect(await countRows(asked, inArea(1), {}, { cap: 3 })).toBe(3);
      expect(await countRows(asked, inArea(1), {})).toBe(Number(all.n));
    }

    // A builder that computes with a value instead of passing it on is refused a kept statement.
    const owner = {};
    for (const areaId of [1, 2, 1]) {
      const rows = await shapedRows(db, owner, 'one shape', [areaId], ([area]) => ({
        query: db.kysely
          .selectFrom('AreaInfo')
          .select('Id')
          .where('Id', '=', Number(area) + 0),
        cacheable: true,
      }));
      expect(rows).toEqual([{ Id: areaId }]);
    }
  });

  it("give the driver's rows: same names in the same order, the later of two equal names, nulls, numbers and text", async () => {
    const { db } = h();
    const owner = {};
    const build = ([id]: readonly unknown[]) => ({
      query: db.kysely
        .selectFrom('AreaInfo')
        .leftJoin('AreaInfo as Other', 'Other.Id', 'AreaInfo.Disabled')
        .select([
          'AreaInfo.Id',
          'AreaInfo.Name',
          sql<string>`'first'`.as('Twice'),
          sql<null>`null`.as('Nothing'),
          sql<number>`2`.as('Two'),
          sql<string>`'second'`.as('Twice'),
          'Other.Name as OtherName',
        ])
        .where('AreaInfo.Id', '=', id as number),
      cacheable: true,
    });
    for (const id of [1, 2, 1]) {
      const kept = await shapedRows<Record<string, unknown>>(db, owner, 'row shape', [id], build);
      const fresh = (await db.kysely.executeQuery(build([id]).query.compile())).rows;
      expect(kept).toEqual(fresh);
      expect(kept.map((row) => Object.keys(row))).toEqual(fresh.map((row) => Object.keys(row as object)));
      expect(kept[0]).toMatchObject({ Id: id, Twice: 'second', Nothing: null, Two: 2, OtherName: null });
    }
  });
});
