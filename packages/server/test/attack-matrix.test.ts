import { expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { call, login, type CallOptions } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';
import { makeUser } from './support/users.ts';

/**
 * The authorisation matrix, generated from the OpenAPI document the app serves: every operation it
 * declares is attacked, so a new endpoint is covered without editing this file.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
}

interface Operation {
  method: Method;
  /** The document's path (`/api/AreaInfo/{Id}`). */
  path: string;
  /** null: public; [] signed-in only; else any one of these codes. */
  codes: string[] | null;
  area: boolean;
  pathId: boolean;
  queryId: boolean;
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<string, { description?: string; security?: unknown[]; parameters?: Parameter[] }>
  >;
}

const GUARD_FORBIDDEN = '没有执行此操作的权限';
const AREA_FORBIDDEN = '无权操作该区域';
/** An id no row has: positive controls must not touch real data. */
const NO_ROW = 2_147_483_647;

function operationsOf(doc: OpenApiDoc): Operation[] {
  const operations: Operation[] = [];
  for (const [path, byMethod] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(byMethod)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const parameters = op.parameters ?? [];
      const listed = /Permission codes: (.*) \(or admin\)\./.exec(op.description ?? '');
      operations.push({
        method: method.toUpperCase() as Method,
        path,
        codes: op.security?.length ? (listed ? listed[1]!.split(', ') : []) : null,
        area: parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'x-area-id'),
        pathId: parameters.some((p) => p.in === 'path' && p.name === 'Id'),
        queryId: parameters.some((p) => p.in === 'query' && p.name === 'Id'),
      });
    }
  }
  return operations;
}

interface Reply {
  status: number;
  msg: string;
}

/** One call; unlike `call` it also takes file downloads (their message is empty). */
async function send(app: FastifyInstance, method: Method, url: string, options: CallOptions): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.area !== undefined) headers['x-area-id'] = String(options.area);
  const response = await app.inject({
    method,
    url,
    headers,
    ...(options.query
      ? { query: Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, String(v)])) }
      : {}),
  });
  const json = String(response.headers['content-type'] ?? '').includes('application/json');
  return { status: response.statusCode, msg: json ? String((response.json() as { msg?: string }).msg) : '' };
}

function urlOf(op: Operation, id: number): string {
  return op.path.replace(/\{(\w+)\}/g, String(id));
}

/** Demo users with the codes their roles grant (the admin role passes everything, so it is left out). */
async function demoUsers(h: Harness): Promise<{ name: string; codes: Set<string> }[]> {
  const rows = await h.db.kysely
    .selectFrom('AppUser')
    .leftJoin('UserRole', 'UserRole.UserId', 'AppUser.Id')
    .leftJoin('Role', 'Role.Id', 'UserRole.RoleId')
    .leftJoin('RoleResource', 'RoleResource.RoleId', 'Role.Id')
    .leftJoin('Resource', 'Resource.Id', 'RoleResource.ResourceId')
    .select(['AppUser.UserName as name', 'Role.Code as role', 'Resource.Code as code'])
    .execute();
  const users = new Map<string, Set<string>>();
  const admins = new Set<string>();
  for (const row of rows) {
    if (row.role === 'admin') admins.add(row.name);
    const codes = users.get(row.name) ?? new Set<string>();
    if (row.code) codes.add(row.code);
    users.set(row.name, codes);
  }
  return [...users].filter(([name]) => !admins.has(name)).map(([name, codes]) => ({ name, codes }));
}

describeEachDb('authorisation matrix from the OpenAPI document', (h) => {
  it('refuses every operation to every caller who may not call it, and admits those who may', async () => {
    const app = h().app;
    const adminToken = await login(app, 'admin', ADMIN_PASSWORD);
    const docReply = await app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(docReply.statusCode).toBe(200);
    const operations = operationsOf(docReply.json() as OpenApiDoc);
    expect(operations.length).toBeGreaterThan(50);

    const users = await demoUsers(h());
    expect(users.length).toBeGreaterThan(10);
    const tokens = new Map<string, string>();
    for (const user of users) tokens.set(user.name, await login(app, user.name, DEMO_PASSWORD));

    // A row that area 2 holds and area 1 does not, per resource: listed as admin in area 2
    // (`/api/<Resource>`), then confirmed absent from area 1 by that resource's `GET …/{Id}`.
    const foreignIds = new Map<string, number | undefined>();
    async function foreignId(op: Operation): Promise<number | undefined> {
      const list = `/api/${op.path.split('/')[2]}`;
      if (!foreignIds.has(list)) {
        const listed = operations.some((o) => o.method === 'GET' && o.path === list && o.area);
        const byId = operations.find((o) => o.method === 'GET' && o.path === `${list}/{Id}` && o.area);
        let found: number | undefined;
        if (listed && byId) {
          const reply = await call<{ Items?: { Id?: number }[] }>(app, 'GET', list, {
            token: adminToken,
            area: 2,
            query: { PageSize: 100 },
          });
          for (const item of reply.status === 200 ? (reply.data?.Items ?? []) : []) {
            if (typeof item.Id !== 'number') continue;
            const inArea1 = await send(app, 'GET', urlOf(byId, item.Id), { token: adminToken, area: 1 });
            if (inArea1.status === 404) {
              found = item.Id;
              break;
            }
          }
        }
        foreignIds.set(list, found);
      }
      return foreignIds.get(list);
    }

    // Users holding exactly one code and operating area 1 only, signed in once per code; one whose
    // session an operation ended (logout) is replaced.
    const singleArea = new Map<string, string>();
    let serial = 0;
    async function singleAreaUser(code: string | undefined): Promise<string> {
      const key = code ?? '';
      let token = singleArea.get(key);
      if (token && (await send(app, 'GET', '/api/AppUser/Info', { token })).status === 401) token = undefined;
      token ??= await makeUser(h(), `matrix${++serial}`, code ? [code] : [], [1]);
      singleArea.set(key, token);
      return token;
    }

    const counts = { operations: operations.length, cases: 0, byCase: {} as Record<string, number> };
    const failures: string[] = [];
    function check(kind: string, op: Operation, reply: Reply, ok: boolean, want: string) {
      counts.cases++;
      counts.byCase[kind] = (counts.byCase[kind] ?? 0) + 1;
      if (!ok)
        failures.push(`${kind}: ${op.method} ${op.path} → ${reply.status} ${reply.msg} (want ${want})`);
    }

    for (const op of operations) {
      if (op.codes === null) continue; // public: login and the like
      const url = urlOf(op, NO_ROW);
      const area = op.area ? 1 : undefined;

      const anonymous = await send(app, op.method, url, { area });
      check('no token', op, anonymous, anonymous.status === 401, '401');
      const garbage = await send(app, op.method, url, { area, token: 'garbage-not-a-session-token' });
      check('garbage token', op, garbage, garbage.status === 401, '401');

      if (op.codes.length) {
        for (const user of users) {
          if (op.codes.some((code) => user.codes.has(code))) continue;
          const reply = await send(app, op.method, url, { area, token: tokens.get(user.name) });
          check('lacks the code', op, reply, reply.status === 403 && reply.msg === GUARD_FORBIDDEN, '403');
        }
      }

      const token = await singleAreaUser(op.codes[0]);
      if (op.area) {
        const foreign = await send(app, op.method, url, { area: 2, token });
        check(
          'other area header',
          op,
          foreign,
          foreign.status === 403 && foreign.msg === AREA_FORBIDDEN,
          '403',
        );
        if (op.pathId || (op.queryId && op.method === 'GET')) {
          const rowId = await foreignId(op);
          if (rowId !== undefined) {
            const reply = await send(app, op.method, urlOf(op, rowId), {
              area: 1,
              token,
              ...(op.queryId ? { query: { Id: rowId } } : {}),
            });
            check('other area row id', op, reply, reply.status === 404, '404');
          }
        }
      }
      // Positive control: the same user in its own area passes the guard (any other answer is fine). An
      // operation naming an area in its input (AreaInfo) may still refuse that area: not the guard's
      // header check, and the id names no area.
      const admitted = await send(app, op.method, url, {
        area,
        token,
        ...(op.queryId ? { query: { Id: NO_ROW } } : {}),
      });
      check(
        'admitted',
        op,
        admitted,
        admitted.status !== 401 &&
          admitted.msg !== GUARD_FORBIDDEN &&
          (!op.area || admitted.msg !== AREA_FORBIDDEN),
        'not refused by the guard',
      );
    }
    console.log(
      `[${h().dialect}] authorisation matrix: ${counts.operations} operations × cases = ${counts.cases} calls`,
      counts.byCase,
    );
    expect(failures).toEqual([]);
  }, 120_000);
});
