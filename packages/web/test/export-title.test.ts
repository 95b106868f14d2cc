import { describe, expect, it, vi } from 'vitest';

const request = vi.fn(() => Promise.resolve({ Id: 1, Status: 'failed', Title: '操作日志' }));
vi.mock('../src/core/http.ts', () => ({ http: { request } }));

const { exportList } = await import('../src/components/list-page/export-job.ts');

describe('exportList', () => {
  it("sends the screen's title, which names the file", async () => {
    await exportList('AuditLog', { StartTime: '2026-11-01T00:00:00.000Z' }, () => undefined, '操作日志');
    expect(request).toHaveBeenCalledWith('POST', '/api/ExportJob', {
      body: {
        Resource: 'AuditLog',
        Query: { StartTime: '2026-11-01T00:00:00.000Z' },
        Title: '操作日志',
      },
    });
  });
});
