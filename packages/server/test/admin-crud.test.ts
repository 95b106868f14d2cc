import { expect, it } from 'vitest';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';
import { makeUser } from './support/users.ts';

type Errors = { Errors: { Field: string; Message: string }[] };
interface Item {
  Id: number;
  Name: string;
  [key: string]: unknown;
}
type PageOf<T> = { Items: T[]; Total: number };

/**
 * The contract every area-scoped resource declared with the helper keeps: paging, filter, sort, 400 with
 * nothing written, read code cannot write, no view or change across areas, an audit entry per write.
 */
interface Case {
  name: string;
  table: 'PeopleGroup' | 'PeopleType' | 'OperatorStaff' | 'Department';
  writeCodes: string[];
  /** A user who may read but not write, or null when read and write codes are the same. */
  reader: string | null;
  valid: (n: number) => Record<string, unknown>;
  invalid: { body: Record<string, unknown>; fields: string[] };
  filter: { query: Record<string, string>; name: string };
}

const cases: Case[] = [
  {
    name: 'PeopleGroup',
    table: 'PeopleGroup',
    writeCodes: ['PeopleGroup/Admin'],
    reader: null,
    valid: (n) => ({ Name: `测试分组${n}`, Remark: '自动化测试', Sort: n }),
    invalid: { body: { Name: '  ', Sort: -1, Color: 'red' }, fields: ['Name', 'Sort', 'Color'] },
    filter: { query: { Name: '测试分组2' }, name: '测试分组2' },
  },
  {
    name: 'PeopleType',
    table: 'PeopleType',
    writeCodes: ['PeopleGroup/Admin'],
    reader: null,
    valid: (n) => ({ Name: `测试类型${n}` }),
    invalid: { body: { Name: 'x'.repeat(51) }, fields: ['Name'] },
    filter: { query: { Name: '类型3' }, name: '测试类型3' },
  },
  {
    name: 'OperatorStaff',
    table: 'OperatorStaff',
    writeCodes: ['AppUser/AdminConfig'],
    reader: null,
    valid: (n) => ({ Name: `值班员${n}`, StaffType: n % 3, Phone: `1390000000${n}` }),
    invalid: {
      body: { Name: '钱七', StaffType: 7, Phone: '12345', Email: 'not-mail' },
      fields: ['StaffType', 'Phone', 'Email'],
    },
    filter: { query: { Keyword: '13900000002' }, name: '值班员2' },
  },
  {
    name: 'Department',
    table: 'Department',
    writeCodes: ['Department/Admin'],
    reader: 'deptuser',
    valid: (n) => ({ Name: `测试部门${n}`, Sort: 100 + n }),
    invalid: { body: { Name: '', ParentId: 'root' }, fields: ['Name', 'ParentId'] },
    filter: { query: { Name: '测试部门1' }, name: '测试部门1' },
  },
];

async function auditCount(h: Harness, entity: string, action: string, id: number) {
  const rows = await h.db.kysely
    .selectFrom('AuditLog')
    .select(['Id', 'Before', 'After', 'UserName', 'AreaId'])
    .where('Entity', '=', entity)
    .where('Action', '=', action)
    .where('EntityId', '=', String(id))
    .execute();
  return rows;
}

describeEachDb('administration resources keep the list/write contract', (h) => {
  for (const c of cases) {
    it(`${c.name}: create, list with filter, paging and sort, update, delete, each audited`, async () => {
      const token = await makeUser(h(), `${c.name}-writer`, c.writeCodes, [1, 2]);
      const url = `/api/${c.name}`;
      const ids: number[] = [];
      for (let n = 1; n <= 3; n++) {
        const created = await call<Item>(h().app, 'POST', url, { token, area: 2, body: c.valid(n) });
        expect(created.status, created.msg).toBe(200);
        ids.push(created.data.Id);
        const [entry] = await auditCount(h(), c.name, 'create', created.data.Id);
        expect(entry).toMatchObject({ UserName: `${c.name}-writer`, AreaId: 2 });
        expect(JSON.parse(entry!.After!)).toMatchObject({ Name: c.valid(n).Name });
      }

      const filtered = await call<PageOf<Item>>(h().app, 'GET', url, {
        token,
        area: 2,
        query: c.filter.query,
      });
      expect(filtered.data.Items.map((i) => i.Name)).toEqual([c.filter.name]);

      const all = await call<PageOf<Item>>(h().app, 'GET', url, { token, area: 2, query: { PageSize: 100 } });
      const page = await call<PageOf<Item>>(h().app, 'GET', url, {
        token,
        area: 2,
        query: { PageSize: 2, PageIndex: 2, SortField: 'Name', SortOrder: 'desc' },
      });
      expect(page.data.Total).toBe(all.data.Total);
      const byNameDesc = [...all.data.Items]
        .map((i) => i.Name)
        .sort()
        .reverse();
      expect(page.data.Items.map((i) => i.Name)).toEqual(byNameDesc.slice(2, 4));
      const badSort = await call(h().app, 'GET', url, {
        token,
        area: 2,
        query: { SortField: 'PasswordHash' },
      });
      expect(badSort.status).toBe(400);

      const updated = await call<Item>(h().app, 'PUT', url, {
        token,
        area: 2,
        body: { Id: ids[0], ...c.valid(9) },
      });
      expect(updated.status, updated.msg).toBe(200);
      expect(updated.data.Name).toBe(c.valid(9).Name);
      const [change] = await auditCount(h(), c.name, 'update', ids[0]!);
      expect(JSON.parse(change!.Before!).Name).toBe(c.valid(1).Name);
      expect(JSON.parse(change!.After!).Name).toBe(c.valid(9).Name);

      expect((await call(h().app, 'DELETE', `${url}/${ids[0]}`, { token, area: 2 })).status).toBe(200);
      expect((await call(h().app, 'GET', `${url}/${ids[0]}`, { token, area: 2 })).status).toBe(404);
      expect(await auditCount(h(), c.name, 'delete', ids[0]!)).toHaveLength(1);

      expect(
        (await call(h().app, 'POST', `${url}/BatchDelete`, { token, area: 2, body: { Ids: ids.slice(1) } }))
          .status,
      ).toBe(200);
      expect(await h().db.kysely.selectFrom(c.table).select('Id').where('Id', 'in', ids).execute()).toEqual(
        [],
      );
    });

    it(`${c.name}: invalid input is a 400 naming each field, and nothing is written`, async () => {
      const token = await makeUser(h(), `${c.name}-bad`, c.writeCodes, [1]);
      const count = async () => (await h().db.kysely.selectFrom(c.table).select('Id').execute()).length;
      const audits = async () => (await h().db.kysely.selectFrom('AuditLog').select('Id').execute()).length;
      const [rows, entries] = [await count(), await audits()];
      const reply = await call<Errors>(h().app, 'POST', `/api/${c.name}`, {
        token,
        area: 1,
        body: c.invalid.body,
        lang: 'en',
      });
      expect(reply.status).toBe(400);
      expect(reply.data.Errors.map((e) => e.Field).sort()).toEqual([...c.invalid.fields].sort());
      for (const e of reply.data.Errors) expect(e.Message).not.toMatch(/^validation\.|^error\./);
      const existing = await call<PageOf<Item>>(h().app, 'GET', `/api/${c.name}`, { token, area: 1 });
      const target = existing.data.Items[0]!;
      const update = await call<Errors>(h().app, 'PUT', `/api/${c.name}`, {
        token,
        area: 1,
        body: { Id: target.Id, ...c.invalid.body },
      });
      expect(update.status).toBe(400);
      expect(
        (await call<Item>(h().app, 'GET', `/api/${c.name}/${target.Id}`, { token, area: 1 })).data,
      ).toEqual(target);
      expect([await count(), await audits()]).toEqual([rows, entries]);
    });

    it(`${c.name}: another area's rows are invisible and untouchable`, async () => {
      const token = await makeUser(h(), `${c.name}-a1`, c.writeCodes, [1]);
      const other = await h()
        .db.kysely.selectFrom(c.table)
        .selectAll()
        .where('AreaId', '=', 2)
        .executeTakeFirstOrThrow();
      const listed = await call<PageOf<Item>>(h().app, 'GET', `/api/${c.name}`, {
        token,
        area: 1,
        query: { PageSize: 100 },
      });
      expect(listed.data.Items.map((i) => i.Id)).not.toContain(other.Id);
      expect((await call(h().app, 'GET', `/api/${c.name}`, { token, area: 2 })).status).toBe(403);
      expect((await call(h().app, 'GET', `/api/${c.name}/${other.Id}`, { token, area: 1 })).status).toBe(404);
      const update = await call(h().app, 'PUT', `/api/${c.name}`, {
        token,
        area: 1,
        body: { Id: other.Id, ...c.valid(7) },
      });
      expect(update.status).toBe(404);
      expect((await call(h().app, 'DELETE', `/api/${c.name}/${other.Id}`, { token, area: 1 })).status).toBe(
        404,
      );
      expect(
        await h().db.kysely.selectFrom(c.table).selectAll().where('Id', '=', other.Id).executeTakeFirst(),
      ).toEqual(other);
    });

    if (c.reader) {
      it(`${c.name}: a reader lists but cannot write (403)`, async () => {
        const token = await login(h().app, c.reader!, DEMO_PASSWORD);
        expect((await call(h().app, 'GET', `/api/${c.name}`, { token, area: 1 })).status).toBe(200);
        const target = (await call<PageOf<Item>>(h().app, 'GET', `/api/${c.name}`, { token, area: 1 })).data
          .Items[0]!;
        expect(
          (await call(h().app, 'POST', `/api/${c.name}`, { token, area: 1, body: c.valid(5) })).status,
        ).toBe(403);
        expect(
          (
            await call(h().app, 'PUT', `/api/${c.name}`, {
              token,
              area: 1,
              body: { Id: target.Id, ...c.valid(5) },
            })
          ).status,
        ).toBe(403);
        expect(
          (await call(h().app, 'DELETE', `/api/${c.name}/${target.Id}`, { token, area: 1 })).status,
        ).toBe(403);
      });
    }
  }

  it('OperatorStaff: disable and enable through SetStatus, audited', async () => {
    const token = await login(h().app, 'operatorconfig', DEMO_PASSWORD);
    const staff = (await call<PageOf<Item>>(h().app, 'GET', '/api/OperatorStaff', { token, area: 1 })).data
      .Items[0]!;
    expect(
      (
        await call(h().app, 'POST', '/api/OperatorStaff/SetStatus', {
          token,
          area: 1,
          query: { Id: staff.Id, Disabled: true },
        })
      ).status,
    ).toBe(200);
    const disabled = await call<PageOf<Item>>(h().app, 'GET', '/api/OperatorStaff', {
      token,
      area: 1,
      query: { Disabled: true },
    });
    expect(disabled.data.Items.map((i) => i.Id)).toEqual([staff.Id]);
    expect(await auditCount(h(), 'OperatorStaff', 'status', staff.Id)).toHaveLength(1);
  });
});
