import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { EXPORT_MAX_ROWS } from '@gatehouse/shared';
import { planParts, readPart } from '../src/platform/exports/parts.ts';
import { findExportable } from '../src/platform/exports/registry.ts';
import { systemActor } from '../src/platform/context.ts';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';

interface Job {
  Id: number;
  Status: string;
  RowCount: number;
  Title: string;
  Error: string | null;
  Parts?: Job[];
}

const AREA = 2;

/** People groups of area 2 named `<prefix><n>`, inserted in order (ids ascending, as the list orders them). */
async function addGroups(h: Harness, prefix: string, count: number): Promise<void> {
  const now = h.clock.now();
  const rows = Array.from({ length: count }, (_, i) => ({
    AreaId: AREA,
    Name: `${prefix}${i}`,
    Remark: null,
    Sort: 0,
    CreatedAt: now,
    UpdatedAt: now,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await h.db.kysely
      .insertInto('PeopleGroup')
      .values(rows.slice(i, i + 500))
      .execute();
}

/** Area 2's people groups by name, in the list's own order (Sort, then Id). */
async function groupIds(h: Harness): Promise<Map<string, number>> {
  const rows = await h.db.kysely
    .selectFrom('PeopleGroup')
    .select(['Id', 'Name'])
    .where('AreaId', '=', AREA)
    .orderBy('Sort')
    .orderBy('Id')
    .execute();
  return new Map(rows.map((r) => [r.Name, r.Id]));
}

/** The first column (the group's name) of every data row of a downloaded workbook. */
async function namesIn(h: Harness, token: string, jobId: number): Promise<string[]> {
  const file = await h.app.inject({
    method: 'GET',
    url: `/api/ExportJob/${jobId}/Download`,
    headers: { authorization: `Bearer ${token}`, 'x-area-id': String(AREA) },
  });
  expect(file.statusCode).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const names: string[] = [];
  for (let r = 2; r <= sheet.rowCount; r++) names.push(String(sheet.getRow(r).getCell(1).value));
  return names;
}

describeEachDb('exports in parts of at most 3,000 rows', (h) => {
  it('7,000 rows: refused without Parts (saying 3 parts), then 3 jobs of 3,000/3,000/1,000, no overlap, no gap', async () => {
    const baseline = (await groupIds(h())).size;
    await addGroups(h(), '分批', 7000 - baseline);
    const token = await login(h().app, 'groupadmin', DEMO_PASSWORD);

    const refused = await call<{ Count: number; Max: number; Parts: number }>(
      h().app,
      'POST',
      '/api/ExportJob',
      {
        token,
        area: AREA,
        lang: 'en',
        body: { Resource: 'PeopleGroup', Query: {} },
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.data).toEqual({ Count: 7000, Max: 3000, Parts: 3 });

    const created = await call<Job>(h().app, 'POST', '/api/ExportJob', {
      token,
      area: AREA,
      lang: 'en',
      body: { Resource: 'PeopleGroup', Query: {}, Title: 'People groups', Parts: true },
    });
    expect(created.status, created.msg).toBe(200);
    const parts = created.data.Parts!;
    expect(parts.map((p) => p.Title)).toEqual([
      'People groups (1 of 3)',
      'People groups (2 of 3)',
      'People groups (3 of 3)',
    ]);
    expect(created.data.Id).toBe(parts[0]!.Id);
    await h().platform.exports.idle();

    const ids = await groupIds(h());
    const files: number[][] = [];
    for (const part of parts) {
      const job = (await call<Job>(h().app, 'GET', `/api/ExportJob/${part.Id}`, { token, area: AREA })).data;
      expect(job.Status, job.Error ?? '').toBe('done');
      const names = await namesIn(h(), token, part.Id);
      expect(names.length).toBe(job.RowCount);
      expect(names.length).toBeLessThanOrEqual(EXPORT_MAX_ROWS);
      files.push(names.map((n) => ids.get(n)!));
    }
    expect(files.map((f) => f.length)).toEqual([3000, 3000, 1000]);
    // Every row of the list exactly once, in the list's order (Sort, then Id), across the three files.
    const all = files.flat();
    expect(new Set(all).size).toBe(7000);
    expect(all).toEqual([...ids.values()]);
    // The download is named after its part.
    const file = await h().app.inject({
      method: 'GET',
      url: `/api/ExportJob/${parts[1]!.Id}/Download`,
      headers: { authorization: `Bearer ${token}`, 'x-area-id': String(AREA) },
    });
    expect(decodeURIComponent(String(file.headers['content-disposition']))).toContain(
      'People groups (2 of 3)',
    );
  });

  it('parts stay exact while rows are added meanwhile; a part whose boundary row vanished fails cleanly', async () => {
    const exportable = findExportable('PeopleGroup')!;
    const ctx = {
      db: h().db,
      clock: h().clock,
      lang: 'en' as const,
      actor: systemActor('test'),
      areaId: AREA,
    };
    const q = exportable.query.parse({}) as Record<string, unknown>;
    const plan = (await planParts(exportable, ctx, q))!;
    expect(plan.map((p) => p.rows)).toEqual([3000, 3000, 1000]);
    const before = [...(await groupIds(h())).values()];

    // Rows added after the plan (higher ids) belong to no part; the parts still read exactly the plan.
    await addGroups(h(), '之后', 2500);
    const read = await Promise.all(plan.map((part) => readPart(exportable, ctx, q, part)));
    expect(read.map((rows) => rows.length)).toEqual([3000, 3000, 1000]);
    expect(read.flat().map((r) => r.Id as number)).toEqual(before);

    // A row deleted inside a part: that part is one shorter, its neighbours unchanged.
    await h().db.kysely.deleteFrom('PeopleGroup').where('Id', '=', before[4500]!).execute();
    const again = await Promise.all(plan.map((part) => readPart(exportable, ctx, q, part)));
    expect(again.map((rows) => rows.length)).toEqual([3000, 2999, 1000]);

    // The first row of part 3 gone: part 3 cannot tell where it starts, and says so rather than guess.
    await h().db.kysely.deleteFrom('PeopleGroup').where('Id', '=', plan[2]!.first).execute();
    await expect(readPart(exportable, ctx, q, plan[2]!)).rejects.toThrow(/boundary/);
  });

  it('refuses parts when even 10 parts would not hold the view', async () => {
    await addGroups(h(), '超限', 30_001 - (await groupIds(h())).size);
    const token = await login(h().app, 'groupadmin', DEMO_PASSWORD);
    const refused = await call<{ Parts: number | null }>(h().app, 'POST', '/api/ExportJob', {
      token,
      area: AREA,
      lang: 'en',
      body: { Resource: 'PeopleGroup', Query: {}, Parts: true },
    });
    expect(refused.status).toBe(400);
    expect(refused.data.Parts).toBeNull();
    expect(refused.msg).toContain('at most 10 parts of 3000 rows');
  });
});
