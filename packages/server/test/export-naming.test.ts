import { expect, it } from 'vitest';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb } from './support/harness.ts';
import { filterDates } from '../src/modules/system/export-job/service.ts';

/** An export's file is named after the screen's title as the menu shows it and the filter's dates. */
describeEachDb('export file names', (h) => {
  it('names the file after the screen title and the dates of its filter', async () => {
    const { app } = h();
    const token = await login(app, 'superadmin', DEMO_PASSWORD);
    const job = await call<{ Id: number; Title: string }>(app, 'POST', '/api/ExportJob', {
      token,
      area: 1,
      body: {
        Resource: 'AuditLog',
        Title: '操作日志',
        // The same calendar days in UTC and at the site (UTC+8), whatever zone the area names.
        Query: { StartTime: '2026-10-26T02:00:00.000Z', EndTime: '2026-11-01T03:00:00.000Z' },
      },
    });
    expect(job.status, job.msg).toBe(200);
    expect(job.data.Title).toBe('操作日志');
    await h().platform.exports.idle();
    const file = await app.inject({
      method: 'GET',
      url: `/api/ExportJob/${job.data.Id}/Download`,
      headers: { authorization: `Bearer ${token}`, 'x-area-id': '1' },
    });
    expect(file.statusCode).toBe(200);
    expect(decodeURIComponent(String(file.headers['content-disposition']))).toContain(
      "filename*=UTF-8''操作日志 2026-10-26~2026-11-01.xlsx",
    );
  });
});

it('reads the filter dates in the site zone', () => {
  const query = JSON.stringify({
    StartTime: '2026-10-31T16:00:00.000Z',
    EndTime: String(Date.UTC(2026, 10, 7, 15)),
  });
  expect(filterDates(query, 'Asia/Shanghai')).toBe('2026-11-01~2026-11-07');
  expect(filterDates(query, 'UTC')).toBe('2026-10-31~2026-11-07');
  expect(filterDates('{}', 'UTC')).toBeNull();
});
