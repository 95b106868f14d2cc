import type { Kysely } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.ts';
import { GARAGE_TABLES } from '../src/modules/garage/index.ts';
import { garageTokens } from './garage-fixtures.ts';
import { call } from './support/client.ts';
import { describeEachDb, type Harness } from './support/harness.ts';

const READ = ['Bicycle/Admin', 'Bicycle/User'];
const ADMIN = ['Bicycle/Admin'];

type Table = keyof Database & string;
/** Any garage table by name, for the loops over all of them. */
type AnyTables = Kysely<Record<string, { Id: number; AreaId: number }>>;
/** The module's own list of its tables, so a table added there is walked here too. */
const TABLES = GARAGE_TABLES satisfies readonly Table[];

/** One row id per garage table of one area, and an enabled monthly rule. */
type Ids = Record<(typeof TABLES)[number] | 'MonthlyRule', number>;
interface Sample {
  url: string;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
}

/**
 * Every garage endpoint: who may call it (read = both codes, admin = Bicycle/Admin) and a request naming
 * rows of the *other* area (with the caller's own area in the header), with the status that must come back:
 * 404 for a row addressed by id, 400 for a foreign reference in a body. A new endpoint fails the first test
 * until it is classified here.
 */
const ENDPOINTS: Record<
  string,
  { access: 'read' | 'admin'; foreign: (f: Ids, own: Ids) => Sample; status: number }
> = {
  'GET /api/ParkArea': { access: 'read', foreign: () => ({ url: '/api/ParkArea' }), status: 200 },
  'GET /api/ParkArea/:Id': {
    access: 'read',
    foreign: (f) => ({ url: `/api/ParkArea/${f.ParkArea}` }),
    status: 404,
  },
  'POST /api/ParkArea': {
    access: 'admin',
    foreign: (f) => ({
      url: '/api/ParkArea',
      body: { Name: '越权区域', Capacity: 1, ChargeRuleIds: [f.ChargeRule] },
    }),
    status: 400,
  },
  'PUT /api/ParkArea': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ParkArea', body: { Id: f.ParkArea, Name: '越权', Capacity: 1 } }),
    status: 404,
  },
  'DELETE /api/ParkArea/:Id': {
    access: 'admin',
    foreign: (f) => ({ url: `/api/ParkArea/${f.ParkArea}` }),
    status: 404,
  },
  'POST /api/ParkArea/BatchDelete': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ParkArea/BatchDelete', body: { Ids: [f.ParkArea] } }),
    status: 404,
  },
  'POST /api/ParkArea/SetStatus': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ParkArea/SetStatus', query: { Id: f.ParkArea, Disabled: true } }),
    status: 404,
  },
  'POST /api/ParkArea/EmergencyStop': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ParkArea/EmergencyStop', body: { Id: f.ParkArea, Reason: '越权' } }),
    status: 404,
  },
  'POST /api/ParkArea/EmergencyRelease': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ParkArea/EmergencyRelease', body: { Id: f.ParkArea, Note: '越权' } }),
    status: 404,
  },
  'GET /api/ParkArea/EmergencyStops': {
    access: 'read',
    foreign: () => ({ url: '/api/ParkArea/EmergencyStops' }),
    status: 200,
  },
  'GET /api/ChargeRule': { access: 'read', foreign: () => ({ url: '/api/ChargeRule' }), status: 200 },
  'GET /api/ChargeRule/:Id': {
    access: 'read',
    foreign: (f) => ({ url: `/api/ChargeRule/${f.ChargeRule}` }),
    status: 404,
  },
  'POST /api/ChargeRule': {
    access: 'admin',
    foreign: (f) => ({
      url: '/api/ChargeRule',
      body: { Name: '越权规则', ChargeType: 1, TimeUnit: 2, UnitPriceCents: 1, ParkAreaIds: [f.ParkArea] },
    }),
    status: 400,
  },
  'PUT /api/ChargeRule': {
    access: 'admin',
    foreign: (f) => ({
      url: '/api/ChargeRule',
      body: { Id: f.ChargeRule, Name: '越权', ChargeType: 1, TimeUnit: 2, UnitPriceCents: 1 },
    }),
    status: 404,
  },
  'DELETE /api/ChargeRule/:Id': {
    access: 'admin',
    foreign: (f) => ({ url: `/api/ChargeRule/${f.ChargeRule}` }),
    status: 404,
  },
  'POST /api/ChargeRule/BatchDelete': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ChargeRule/BatchDelete', body: { Ids: [f.ChargeRule] } }),
    status: 404,
  },
  'POST /api/ChargeRule/SetStatus': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ChargeRule/SetStatus', query: { Id: f.ChargeRule, Disabled: true } }),
    status: 404,
  },
  'GET /api/ChargeHost': { access: 'read', foreign: () => ({ url: '/api/ChargeHost' }), status: 200 },
  'GET /api/ChargeHost/:Id': {
    access: 'read',
    foreign: (f) => ({ url: `/api/ChargeHost/${f.ChargeHost}` }),
    status: 404,
  },
  'POST /api/ChargeHost': {
    access: 'admin',
    foreign: (f) => ({
      url: '/api/ChargeHost',
      body: {
        SerialNumber: 'FOREIGN01',
        Name: '越权主机',
        ParkAreaId: f.ParkArea,
        PortCount: 2,
        ChargingSystemType: 0,
      },
    }),
    status: 400,
  },
  'PUT /api/ChargeHost': {
    access: 'admin',
    foreign: (f, own) => ({
      url: '/api/ChargeHost',
      body: {
        Id: f.ChargeHost,
        SerialNumber: 'FOREIGN01',
        Name: '越权',
        ParkAreaId: own.ParkArea,
        PortCount: 10,
        ChargingSystemType: 0,
      },
    }),
    status: 404,
  },
  'DELETE /api/ChargeHost/:Id': {
    access: 'admin',
    foreign: (f) => ({ url: `/api/ChargeHost/${f.ChargeHost}` }),
    status: 404,
  },
  'POST /api/ChargeHost/BatchDelete': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ChargeHost/BatchDelete', body: { Ids: [f.ChargeHost] } }),
    status: 404,
  },
  'POST /api/ChargeHost/SetStatus': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ChargeHost/SetStatus', query: { Id: f.ChargeHost, Disabled: true } }),
    status: 404,
  },
  'GET /api/ChargeEquipment': {
    access: 'read',
    foreign: () => ({ url: '/api/ChargeEquipment' }),
    status: 200,
  },
  'GET /api/ChargeEquipment/:Id': {
    access: 'read',
    foreign: (f) => ({ url: `/api/ChargeEquipment/${f.ChargeEquipment}` }),
    status: 404,
  },
  'GET /api/ChargeEquipment/Grid': {
    access: 'read',
    foreign: (f) => ({ url: '/api/ChargeEquipment/Grid', query: { ChargeHostId: f.ChargeHost } }),
    status: 404,
  },
  'POST /api/ChargeEquipment': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ChargeEquipment', body: { ChargeHostId: f.ChargeHost, PortNumber: 1 } }),
    status: 400,
  },
  'PUT /api/ChargeEquipment': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ChargeEquipment', body: { Id: f.ChargeEquipment, PortNumber: 1 } }),
    status: 404,
  },
  'DELETE /api/ChargeEquipment/:Id': {
    access: 'admin',
    foreign: (f) => ({ url: `/api/ChargeEquipment/${f.ChargeEquipment}` }),
    status: 404,
  },
  'POST /api/ChargeEquipment/BatchDelete': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ChargeEquipment/BatchDelete', body: { Ids: [f.ChargeEquipment] } }),
    status: 404,
  },
  'POST /api/ChargeEquipment/SetStatus': {
    access: 'admin',
    foreign: (f) => ({
      url: '/api/ChargeEquipment/SetStatus',
      query: { Id: f.ChargeEquipment, Disabled: true },
    }),
    status: 404,
  },
  'POST /api/ChargeEquipment/ForcedPowerOff': {
    access: 'read',
    foreign: (f) => ({
      url: '/api/ChargeEquipment/ForcedPowerOff',
      body: { ChargeEquipmentId: f.ChargeEquipment, Reason: '越权断电' },
    }),
    status: 404,
  },
  'POST /api/ChargeEquipment/RemoteStart': {
    access: 'read',
    foreign: (f) => ({
      url: '/api/ChargeEquipment/RemoteStart',
      body: { ChargeEquipmentId: f.ChargeEquipment, CardNumber: '0012345678' },
    }),
    status: 404,
  },
  'POST /api/ChargeHost/Reset': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ChargeHost/Reset', body: { Id: f.ChargeHost } }),
    status: 404,
  },
  'POST /api/ChargeHost/Configure': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ChargeHost/Configure', body: { Id: f.ChargeHost } }),
    status: 404,
  },
  'POST /api/ChargeHost/ClearAlarm': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ChargeHost/ClearAlarm', body: { Id: f.ChargeHost, Note: '越权' } }),
    status: 404,
  },
  'POST /api/ChargeHost/SetOcppPassword': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ChargeHost/SetOcppPassword', body: { Id: f.ChargeHost } }),
    status: 404,
  },
  'GET /api/ChargeRecord': { access: 'read', foreign: () => ({ url: '/api/ChargeRecord' }), status: 200 },
  'GET /api/ChargeRecord/:Id': {
    access: 'read',
    foreign: (f) => ({ url: `/api/ChargeRecord/${f.ChargeRecord}` }),
    status: 404,
  },
  'GET /api/ChargeOrder': { access: 'read', foreign: () => ({ url: '/api/ChargeOrder' }), status: 200 },
  'GET /api/ChargeOrder/:Id': {
    access: 'read',
    foreign: (f) => ({ url: `/api/ChargeOrder/${f.ChargeOrder}` }),
    status: 404,
  },
  'POST /api/ChargeOrder/Close': {
    access: 'read',
    foreign: (f) => ({ url: '/api/ChargeOrder/Close', body: { Id: f.ChargeOrder } }),
    status: 404,
  },
  'POST /api/ChargeOrder/Refund': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ChargeOrder/Refund', body: { Id: f.ChargeOrder, Reason: '越权' } }),
    status: 404,
  },
  'POST /api/ChargeOrder/CancelRefund': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ChargeOrder/CancelRefund', body: { Id: f.ChargeOrder } }),
    status: 404,
  },
  'POST /api/ChargeOrder/RetryRefund': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ChargeOrder/RetryRefund', body: { Id: f.ChargeOrder } }),
    status: 404,
  },
  'GET /api/ParkOrder': { access: 'read', foreign: () => ({ url: '/api/ParkOrder' }), status: 200 },
  'GET /api/ParkOrder/:Id': {
    access: 'read',
    foreign: (f) => ({ url: `/api/ParkOrder/${f.ParkOrder}` }),
    status: 404,
  },
  'POST /api/ParkOrder/Close': {
    access: 'read',
    foreign: (f) => ({ url: '/api/ParkOrder/Close', body: { Id: f.ParkOrder } }),
    status: 404,
  },
  'POST /api/ParkOrder/Refund': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ParkOrder/Refund', body: { Id: f.ParkOrder, Reason: '越权' } }),
    status: 404,
  },
  'POST /api/ParkOrder/CancelRefund': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ParkOrder/CancelRefund', body: { Id: f.ParkOrder } }),
    status: 404,
  },
  'POST /api/ParkOrder/RetryRefund': {
    access: 'admin',
    foreign: (f) => ({ url: '/api/ParkOrder/RetryRefund', body: { Id: f.ParkOrder } }),
    status: 404,
  },
  'GET /api/ForcedOutageRecord': {
    access: 'read',
    foreign: () => ({ url: '/api/ForcedOutageRecord' }),
    status: 200,
  },
  'GET /api/ForcedOutageRecord/:Id': {
    access: 'read',
    foreign: (f) => ({ url: `/api/ForcedOutageRecord/${f.ForcedOutageRecord}` }),
    status: 404,
  },
  'GET /api/Vehicle': { access: 'read', foreign: () => ({ url: '/api/Vehicle' }), status: 200 },
  'GET /api/Vehicle/:Id': {
    access: 'read',
    foreign: (f) => ({ url: `/api/Vehicle/${f.Vehicle}` }),
    status: 404,
  },
  'POST /api/Vehicle': {
    access: 'read',
    foreign: () => ({ url: '/api/Vehicle', body: { Plate: '浙AF12345' } }),
    status: 200,
  },
  'PUT /api/Vehicle': {
    access: 'read',
    foreign: (f) => ({ url: '/api/Vehicle', body: { Id: f.Vehicle, Plate: '浙AF54321' } }),
    status: 404,
  },
  'DELETE /api/Vehicle/:Id': {
    access: 'read',
    foreign: (f) => ({ url: `/api/Vehicle/${f.Vehicle}` }),
    status: 404,
  },
  'POST /api/Vehicle/BatchDelete': {
    access: 'read',
    foreign: (f) => ({ url: '/api/Vehicle/BatchDelete', body: { Ids: [f.Vehicle] } }),
    status: 404,
  },
  'POST /api/Vehicle/SetStatus': {
    access: 'read',
    foreign: (f) => ({ url: '/api/Vehicle/SetStatus', query: { Id: f.Vehicle, Disabled: true } }),
    status: 404,
  },
  'GET /api/MonthlyPass': { access: 'read', foreign: () => ({ url: '/api/MonthlyPass' }), status: 200 },
  'GET /api/MonthlyPass/:Id': {
    access: 'read',
    foreign: (f) => ({ url: `/api/MonthlyPass/${f.MonthlyPass}` }),
    status: 404,
  },
  'POST /api/MonthlyPass': {
    access: 'read',
    foreign: (f, own) => ({
      url: '/api/MonthlyPass',
      body: {
        VehicleId: f.Vehicle,
        ChargeRuleId: own.MonthlyRule,
        StartAt: '2026-11-01T00:00:00Z',
        Units: 1,
      },
    }),
    status: 400,
  },
  'POST /api/MonthlyPass/Renew': {
    access: 'read',
    foreign: (f) => ({ url: '/api/MonthlyPass/Renew', body: { Id: f.MonthlyPass, Units: 1 } }),
    status: 404,
  },
  'DELETE /api/MonthlyPass/:Id': {
    access: 'admin',
    foreign: (f) => ({ url: `/api/MonthlyPass/${f.MonthlyPass}` }),
    status: 404,
  },
  'GET /api/GarageDashboard': {
    access: 'read',
    foreign: () => ({ url: '/api/GarageDashboard' }),
    status: 200,
  },
  'GET /api/GarageDashboard/Daily': {
    access: 'read',
    foreign: () => ({ url: '/api/GarageDashboard/Daily' }),
    status: 200,
  },
};

async function idsOf(h: Harness, areaId: number): Promise<Ids> {
  const ids = {} as Ids;
  for (const table of TABLES) {
    const row = await (h.db.kysely as unknown as AnyTables)
      .selectFrom(table)
      .select('Id')
      .where('AreaId', '=', areaId)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    ids[table] = row.Id;
  }
  const monthly = await h.db.kysely
    .selectFrom('ChargeRule')
    .select('Id')
    .where('AreaId', '=', areaId)
    .where('ChargeType', '=', 1)
    .where('Disabled', '=', 0)
    .executeTakeFirstOrThrow();
  ids.MonthlyRule = monthly.Id;
  return ids;
}

/** Everything the garage holds in an area, to prove a refused call changed nothing there. */
async function snapshot(h: Harness, areaId: number) {
  const out: Record<string, unknown[]> = {};
  for (const table of [...TABLES, 'AuditLog'] as Table[])
    out[table] = await (h.db.kysely as unknown as AnyTables)
      .selectFrom(table)
      .selectAll()
      .where('AreaId', '=', areaId)
      .orderBy('Id')
      .execute();
  return out;
}

/** Fields of a body that hold an id or an enumeration value: JSON numbers only. */
const TYPED = /(Id|Ids)$|^(ChargeType|TemporaryChargeType|TimeUnit|ChargingSystemType)$/;

/** The body with one typed field written as text ("123", or ["123"] for a list). */
function asText(body: Record<string, unknown>, field: string): Record<string, unknown> {
  const value = body[field];
  return { ...body, [field]: Array.isArray(value) ? value.map(String) : String(value) };
}

describeEachDb('garage permissions and area isolation, every endpoint', (h) => {
  let admin = '';
  let user = '';
  beforeAll(async () => {
    ({ admin, user } = await garageTokens(h()));
  });

  const routes = () => h().routes.filter((r) => r.tag === 'Garage');

  it('classifies every garage endpoint, all area-scoped, with the codes of the permission table', () => {
    const declared = routes().map((r) => `${r.method} ${r.url}`);
    expect(declared.sort()).toEqual(Object.keys(ENDPOINTS).sort());
    for (const route of routes()) {
      const expected = ENDPOINTS[`${route.method} ${route.url}`]!;
      expect(route.area, route.url).toBe(true);
      expect(route.access, `${route.method} ${route.url}`).toEqual(
        expected.access === 'admin' ? ADMIN : READ,
      );
    }
  });

  it('refuses every Admin endpoint to the User code (403) and changes nothing', async () => {
    const own = await idsOf(h(), 1);
    const before = await snapshot(h(), 1);
    for (const [key, spec] of Object.entries(ENDPOINTS)) {
      if (spec.access !== 'admin') continue;
      const method = key.split(' ')[0] as 'POST';
      // Aimed at the caller's own rows: only the code can stop it.
      const sample = spec.foreign(own, own);
      const reply = await call(h().app, method, sample.url, {
        token: user,
        area: 1,
        query: sample.query,
        body: sample.body,
      });
      expect(reply.status, key).toBe(403);
    }
    expect(await snapshot(h(), 1)).toEqual(before);
  });

  it('serves every read endpoint to the User code', async () => {
    const own = await idsOf(h(), 1);
    for (const [key, spec] of Object.entries(ENDPOINTS)) {
      if (!key.startsWith('GET ')) continue;
      const sample = spec.foreign(own, own);
      const reply = await call(h().app, 'GET', sample.url, { token: user, area: 1, query: sample.query });
      expect(reply.status, `${key}: ${reply.msg}`).toBe(200);
    }
  });

  it('lists only rows of the current area', async () => {
    for (const table of TABLES) {
      for (const [token, area] of [
        [user, 1],
        [admin, 2],
      ] as const) {
        const reply = await call<{ Items: { Id: number }[]; Total: number }>(
          h().app,
          'GET',
          `/api/${table}`,
          {
            token,
            area,
            query: { PageSize: 100 },
          },
        );
        expect(reply.status, table).toBe(200);
        expect(reply.data.Items.length, table).toBeGreaterThan(0);
        const areas = await h()
          .db.kysely.selectFrom(table)
          .select('AreaId')
          .distinct()
          .where(
            'Id',
            'in',
            reply.data.Items.map((i) => i.Id),
          )
          .execute();
        expect(
          areas.map((a) => a.AreaId),
          `${table} in area ${area}`,
        ).toEqual([area]);
        const total = await h()
          .db.kysely.selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('AreaId', '=', area)
          .executeTakeFirstOrThrow();
        expect(reply.data.Total, table).toBe(Number(total.n));
      }
    }
  });

  it('reaches no row of another area by id, even with the Admin code of both areas: 404 or 400, nothing changed', async () => {
    const foreign = await idsOf(h(), 2);
    const own = await idsOf(h(), 1);
    const before = await snapshot(h(), 2);
    for (const [key, spec] of Object.entries(ENDPOINTS)) {
      const method = key.split(' ')[0] as 'POST';
      const sample = spec.foreign(foreign, own);
      const reply = await call<{ Items?: { Id: number }[] }>(h().app, method, sample.url, {
        token: admin,
        area: 1,
        query: sample.query,
        body: sample.body,
      });
      expect(reply.status, `${key}: ${reply.msg}`).toBe(spec.status);
    }
    expect(await snapshot(h(), 2)).toEqual(before);
  });

  it('refuses an id or an enumeration value written as text in every body (400 on that field), nothing changed', async () => {
    const own = await idsOf(h(), 1);
    const before = await snapshot(h(), 1);
    const refused: string[] = [];
    for (const [key, spec] of Object.entries(ENDPOINTS)) {
      const method = key.split(' ')[0] as 'POST';
      const sample = spec.foreign(own, own);
      const body = sample.body as Record<string, unknown> | undefined;
      for (const field of Object.keys(body ?? {}).filter((f) => TYPED.test(f))) {
        const reply = await call<{ Errors: { Field: string }[] }>(h().app, method, sample.url, {
          token: admin,
          area: 1,
          query: sample.query,
          body: asText(body!, field),
        });
        expect(reply.status, `${key} ${field}: ${reply.msg}`).toBe(400);
        expect(
          reply.data.Errors.map((e) => e.Field.split('.')[0]),
          `${key} ${field}`,
        ).toContain(field);
        refused.push(`${key} ${field}`);
      }
    }
    // Every body of the module that names a row or an enumeration value: ids of zones, rules, hosts, sockets,
    // sessions, orders, vehicles, passes, batch ids, and the charge and system types.
    expect(refused.length).toBeGreaterThanOrEqual(25);
    expect(refused).toEqual(
      expect.arrayContaining([
        'POST /api/ChargeEquipment/ForcedPowerOff ChargeEquipmentId',
        'POST /api/ChargeRule ChargeType',
        'POST /api/ChargeHost ChargingSystemType',
        'POST /api/ParkArea ChargeRuleIds',
        'POST /api/ChargeOrder/Refund Id',
        'POST /api/MonthlyPass VehicleId',
      ]),
    );
    expect(await snapshot(h(), 1)).toEqual(before);
  });

  it('refuses the User code in an area it does not operate (403) on every endpoint', async () => {
    const foreign = await idsOf(h(), 2);
    for (const [key, spec] of Object.entries(ENDPOINTS)) {
      const method = key.split(' ')[0] as 'POST';
      const sample = spec.foreign(foreign, foreign);
      const reply = await call(h().app, method, sample.url, {
        token: user,
        area: 2,
        query: sample.query,
        body: sample.body,
      });
      expect(reply.status, key).toBe(403);
    }
  });

  it('keeps the dashboard figures to the current area', async () => {
    const one = await call<{ Sockets: { Total: number }; Hosts: { Total: number } }>(
      h().app,
      'GET',
      '/api/GarageDashboard',
      {
        token: admin,
        area: 1,
      },
    );
    const two = await call<{ Sockets: { Total: number }; Hosts: { Total: number } }>(
      h().app,
      'GET',
      '/api/GarageDashboard',
      {
        token: admin,
        area: 2,
      },
    );
    for (const [reply, area] of [
      [one, 1],
      [two, 2],
    ] as const) {
      const sockets = await h()
        .db.kysely.selectFrom('ChargeEquipment')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('AreaId', '=', area)
        .executeTakeFirstOrThrow();
      expect(reply.data.Sockets.Total).toBe(Number(sockets.n));
    }
    expect(one.data.Hosts.Total).not.toBe(two.data.Hosts.Total);
  });
});
