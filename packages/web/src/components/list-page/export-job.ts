import { ExportJobApi, type ExportJobItem, type ExportTooManyData } from '@gatehouse/shared';
import { call, download } from '../../core/api.ts';
import { RequestError } from '../../core/request.ts';

/** A job of the export log (GET /api/ExportJob/{Id}). */
export type ExportJob = ExportJobItem;

const POLL_MS = 800;
const POLL_LIMIT_MS = 120_000;

/**
 * The server refused an export of more rows than one file takes, and an export in `parts` files of at most
 * `max` rows is possible: the screen offers it (exportParts).
 */
export class ExportNeedsParts extends Error {
  constructor(
    readonly count: number,
    readonly max: number,
    readonly parts: number,
  ) {
    super(`export of ${count} rows needs ${parts} parts`);
    this.name = 'ExportNeedsParts';
  }
}

function partsOffer(error: unknown): ExportNeedsParts | null {
  if (!(error instanceof RequestError) || error.code !== 400) return null;
  const data = error.data as Partial<ExportTooManyData> | null;
  if (
    !data ||
    typeof data.Count !== 'number' ||
    typeof data.Max !== 'number' ||
    typeof data.Parts !== 'number'
  )
    return null;
  return new ExportNeedsParts(data.Count, data.Max, data.Parts);
}

const finished = (job: ExportJob) => job.Status !== 'pending' && job.Status !== 'running';
const wait = () => new Promise((resolve) => setTimeout(resolve, POLL_MS));

/**
 * Starts an export of a list with its current filters, follows the job until the file is written,
 * then downloads it. The server refuses at once (too many rows, too long a range) with a message the
 * request client shows; the job also stays in the export log.
 */
export async function exportList(
  resource: string,
  query: Record<string, string | number | boolean>,
  onProgress: (job: ExportJob) => void,
  title?: string,
): Promise<ExportJob> {
  // The server reads these as the list reads its URL (Disabled=false, StaffType=2), whatever their JSON types.
  // The title is the screen's as the menu shows it: the file is named after it (and the filter's dates).
  let job: ExportJob;
  try {
    job = await call(ExportJobApi.create, {
      body: { Resource: resource, Query: query, ...(title ? { Title: title.slice(0, 60) } : {}) },
    });
  } catch (error) {
    // Too many rows for one file (the request client has said how many): offer parts when they would do.
    throw partsOffer(error) ?? error;
  }
  const started = Date.now();
  while (job.Status === 'pending' || job.Status === 'running') {
    onProgress(job);
    if (Date.now() - started > POLL_LIMIT_MS) return job;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    job = await call(ExportJobApi.get, { params: { Id: job.Id } });
  }
  onProgress(job);
  if (job.Status === 'done') await downloadExport(job);
  return job;
}

/** Where an export in parts stands: how many parts have finished, and their mean progress. */
export interface PartsProgress {
  finished: number;
  parts: number;
  percent: number;
}

/**
 * Exports a list in parts of at most 3,000 rows (one job and one file per part, "title (1 of 3)"), follows
 * the jobs and downloads each file as it is done. Resolves with every part's job as last seen: all finished,
 * or some still running after the polling limit (the export log has them).
 */
export async function exportParts(
  resource: string,
  query: Record<string, string | number | boolean>,
  onProgress: (progress: PartsProgress) => void,
  title?: string,
): Promise<ExportJob[]> {
  const created = await call(ExportJobApi.create, {
    body: { Resource: resource, Query: query, ...(title ? { Title: title.slice(0, 60) } : {}), Parts: true },
  });
  let jobs: ExportJob[] = created.Parts ?? [created];
  const downloaded = new Set<number>();
  const started = Date.now();
  for (;;) {
    const progress = {
      finished: jobs.filter(finished).length,
      parts: jobs.length,
      percent: Math.round(
        jobs.reduce((sum, job) => sum + (finished(job) ? 100 : job.Progress), 0) / jobs.length,
      ),
    };
    onProgress(progress);
    for (const job of jobs) {
      if (job.Status !== 'done' || downloaded.has(job.Id)) continue;
      downloaded.add(job.Id);
      // A download the browser blocked is still in the export log and in the finished message's links.
      await downloadExport(job).catch(() => undefined);
    }
    if (jobs.every(finished) || Date.now() - started > POLL_LIMIT_MS) return jobs;
    await wait();
    jobs = await Promise.all(
      jobs.map((job) => (finished(job) ? job : call(ExportJobApi.get, { params: { Id: job.Id } }))),
    );
  }
}

export function downloadExport(job: Pick<ExportJob, 'Id' | 'Title'>): Promise<void> {
  return download(ExportJobApi.download, { params: { Id: job.Id } }, `${job.Title}.xlsx`);
}
