import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';
import { makeUser } from './support/users.ts';

interface Job {
  Id: number;
  Status: string;
  RowCount: number;
  Size: number;
  Title: string;
  UserName: string;
}

async function finished(h: Harness, token: string, id: number): Promise<Job> {
  await h.platform.exports.idle();
  return (await call<Job>(h.app, 'GET', `/api/ExportJob/${id}`, { token, area: 1 })).data;
}

async function download(h: Harness, token: string | undefined, id: number, area = 1) {
  return h.app.inject({
    method: 'GET',
    url: `/api/ExportJob/${id}/Download`,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'x-area-id': String(area) },
  });
}

describeEachDb('exports', (h) => {
  it('writes a real .xlsx with translated headers and enum labels, listed in the export log', async () => {
    const token = await login(h().app, 'operatorconfig', DEMO_PASSWORD);
    const job = await call<Job>(h().app, 'POST', '/api/ExportJob', {
      token,
      area: 1,
      lang: 'en',
      // JSON types as a client may send them: the flag as a boolean, the enum as a number.
      body: { Resource: 'OperatorStaff', Query: { StaffType: 0, Disabled: false, SortField: 'Name' } },
    });
    expect(job.status, job.msg).toBe(200);
    expect(job.data).toMatchObject({
      Status: 'pending',
      Title: 'Operator settings',
      UserName: 'operatorconfig',
    });
    const done = await finished(h(), token, job.data.Id);
    expect(done).toMatchObject({ Status: 'done', RowCount: 2 });

    const file = await download(h(), token, job.data.Id);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(file.headers['content-disposition']).toContain('Operator%20settings');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(headers).toEqual([
      'Name',
      'Staff type',
      'Phone',
      'E-mail',
      'WeChat OpenID',
      'Remark',
      'Status',
      'Created',
    ]);
    const rows = [2, 3].map((n) => (sheet.getRow(n).values as unknown[]).slice(1));
    expect(rows.map((r) => r[0])).toEqual(['刘洋', '张伟']);
    expect(rows.map((r) => r[1])).toEqual(['Operations staff', 'Operations staff']);
    expect(rows[0]![6]).toBe('Enabled');
    expect(String(rows[0]![7])).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(sheet.rowCount).toBe(3);

    const manager = await login(h().app, 'exporter', DEMO_PASSWORD);
    const log = await call<{ Items: Job[] }>(h().app, 'GET', '/api/ExportJob', { token: manager, area: 1 });
    expect(log.data.Items.map((j) => j.Id)).toContain(job.data.Id);
    expect((await download(h(), manager, job.data.Id)).statusCode).toBe(200);
  });

  it('refuses more than 3000 matching rows, writing no job', async () => {
    const { db, clock } = h();
    const now = clock.now();
    const rows = Array.from({ length: 3001 }, (_, i) => ({
      AreaId: 2,
      Name: `批量分组${i}`,
      Remark: null,
      Sort: 0,
      CreatedAt: now,
      UpdatedAt: now,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db.kysely
        .insertInto('PeopleGroup')
        .values(rows.slice(i, i + 500))
        .execute();
    const token = await login(h().app, 'groupadmin', DEMO_PASSWORD);
    const jobs = async () => (await db.kysely.selectFrom('ExportJob').select('Id').execute()).length;
    const before = await jobs();
    const refused = await call(h().app, 'POST', '/api/ExportJob', {
      token,
      area: 2,
      body: { Resource: 'PeopleGroup', Query: {} },
    });
    expect(refused.status).toBe(400);
    expect(refused.msg).toMatch(/有 30\d\d 条，超过单次导出上限 3000 条/);
    expect(await jobs()).toBe(before);
    // Narrowed by the list's own filter, it goes through.
    const narrowed = await call<Job>(h().app, 'POST', '/api/ExportJob', {
      token,
      area: 2,
      body: { Resource: 'PeopleGroup', Query: { Name: '批量分组300' } },
    });
    expect(narrowed.status).toBe(200);
    await h().platform.exports.idle();
  });

  it('refuses a record export over 62 days or without a range; 61 days pass', async () => {
    const token = await login(h().app, 'superadmin', DEMO_PASSWORD);
    const export_ = (Query: Record<string, string>) =>
      call<Job>(h().app, 'POST', '/api/ExportJob', { token, area: 1, body: { Resource: 'AuditLog', Query } });
    const tooLong = await export_({
      StartTime: '2026-09-01T00:00:00.000Z',
      EndTime: '2026-11-02T00:00:00.000Z',
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.msg).toBe('时间范围不能超过 61 天');
    expect((await export_({})).status).toBe(400);
    const ok = await export_({ StartTime: '2026-09-02T00:00:00.000Z', EndTime: '2026-11-01T23:59:59.999Z' });
    expect(ok.status, ok.msg).toBe(200);
    expect((await finished(h(), token, ok.data.Id)).Status).toBe('done');
  });

  it('downloads only with a session, for the creator or an export manager of the area', async () => {
    const token = await login(h().app, 'deptadmin', DEMO_PASSWORD);
    const job = await call<Job>(h().app, 'POST', '/api/ExportJob', {
      token,
      area: 1,
      body: { Resource: 'Department', Query: {} },
    });
    await finished(h(), token, job.data.Id);
    expect((await download(h(), token, job.data.Id)).statusCode).toBe(200);
    expect((await download(h(), undefined, job.data.Id)).statusCode).toBe(401);
    const stranger = await makeUser(h(), 'stranger', ['Department/Admin'], [1, 2]);
    expect((await download(h(), stranger, job.data.Id)).statusCode).toBe(404);
    expect(
      (await download(h(), await login(h().app, 'exporter', DEMO_PASSWORD), job.data.Id, 2)).statusCode,
    ).toBe(404);
    // Exporting a list needs the list's read code.
    expect(
      (
        await call(h().app, 'POST', '/api/ExportJob', {
          token: stranger,
          area: 1,
          body: { Resource: 'Role', Query: {} },
        })
      ).status,
    ).toBe(403);
    // The export log itself is for SuperAdmin and Export.
    expect((await call(h().app, 'GET', '/api/ExportJob', { token, area: 1 })).status).toBe(403);
  });

  it('expires files after the retention period', async () => {
    const token = await login(h().app, 'deptadmin', DEMO_PASSWORD);
    const job = await call<Job>(h().app, 'POST', '/api/ExportJob', {
      token,
      area: 1,
      body: { Resource: 'Department', Query: {} },
    });
    await finished(h(), token, job.data.Id);
    h().clock.advance(8 * 86_400_000);
    expect(await h().platform.exports.sweep()).toBeGreaterThanOrEqual(1);
    const token2 = await login(h().app, 'deptadmin', DEMO_PASSWORD);
    expect(
      (await call<Job>(h().app, 'GET', `/api/ExportJob/${job.data.Id}`, { token: token2, area: 1 })).data
        .Status,
    ).toBe('expired');
    const gone = await download(h(), token2, job.data.Id);
    expect(gone.statusCode).toBe(409);
  });
});
