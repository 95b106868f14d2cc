import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestError } from '../src/core/request.ts';

const request = vi.fn();
vi.mock('../src/core/http.ts', () => ({ http: { request } }));
const downloadFile = vi.fn((url: string, name: string) => Promise.resolve(void [url, name]));
vi.mock('../src/core/download.ts', () => ({ downloadFile }));

const { ExportNeedsParts, exportList, exportParts } =
  await import('../src/components/list-page/export-job.ts');

const job = (Id: number, Status: string, Progress = 0) => ({
  Id,
  Status,
  Progress,
  RowCount: Status === 'done' ? 3000 : 0,
  Title: `刷卡记录（第 ${Id}/3 批）`,
  Error: null,
});

describe('exports in parts', () => {
  afterEach(() => {
    request.mockReset();
    downloadFile.mockClear();
  });

  it('a refusal for too many rows that parts would take becomes an offer of parts', async () => {
    request.mockRejectedValueOnce(
      new RequestError('符合条件的数据有 8724 条', 400, { Count: 8724, Max: 3000, Parts: 3 }),
    );
    const refused = exportList('DoorOpeningRecord', { StartTime: '2026-11-01' }, () => undefined);
    await expect(refused).rejects.toBeInstanceOf(ExportNeedsParts);
    await expect(refused).rejects.toMatchObject({ count: 8724, max: 3000, parts: 3 });
  });

  it('a refusal that parts would not cure (or any other error) stays what it was', async () => {
    const tooMany = new RequestError('太多', 400, { Count: 90000, Max: 3000, Parts: null });
    request.mockRejectedValueOnce(tooMany);
    await expect(exportList('DoorOpeningRecord', {}, () => undefined)).rejects.toBe(tooMany);
  });

  it('asks for parts, follows every part and downloads each file once as it is done', async () => {
    const calls: string[] = [];
    request.mockImplementation((method: string, url: string, options: { body?: unknown }) => {
      calls.push(`${method} ${url}`);
      if (method === 'POST') {
        expect(options.body).toEqual({
          Resource: 'DoorOpeningRecord',
          Query: { StartTime: '2026-11-01' },
          Title: '刷卡记录',
          Parts: true,
        });
        return Promise.resolve({
          ...job(1, 'running', 50),
          Parts: [job(1, 'running', 50), job(2, 'pending'), job(3, 'done')],
        });
      }
      const id = Number(url.split('/').pop());
      return Promise.resolve(job(id, 'done'));
    });
    const progress: { finished: number; parts: number; percent: number }[] = [];
    vi.useFakeTimers();
    const running = exportParts(
      'DoorOpeningRecord',
      { StartTime: '2026-11-01' },
      (p) => progress.push(p),
      '刷卡记录',
    );
    await vi.runAllTimersAsync();
    const jobs = await running;
    vi.useRealTimers();
    expect(jobs.map((j) => j.Status)).toEqual(['done', 'done', 'done']);
    expect(progress[0]).toEqual({ finished: 1, parts: 3, percent: 50 });
    expect(progress.at(-1)).toEqual({ finished: 3, parts: 3, percent: 100 });
    // Part 3 was done at once and is not asked for again; each file is downloaded exactly once.
    expect(calls).toEqual(['POST /api/ExportJob', 'GET /api/ExportJob/1', 'GET /api/ExportJob/2']);
    expect(downloadFile.mock.calls.map((c) => c[0]).sort()).toEqual([
      '/api/ExportJob/1/Download',
      '/api/ExportJob/2/Download',
      '/api/ExportJob/3/Download',
    ]);
  });
});
