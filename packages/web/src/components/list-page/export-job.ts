import { ExportJobApi, type ExportJobItem } from '@gatehouse/shared';
import { call, download } from '../../core/api.ts';

/** A job of the export log (GET /api/ExportJob/{Id}). */
export type ExportJob = ExportJobItem;

const POLL_MS = 800;
const POLL_LIMIT_MS = 120_000;

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
  let job = await call(ExportJobApi.create, {
    body: { Resource: resource, Query: query, ...(title ? { Title: title.slice(0, 60) } : {}) },
  });
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

export function downloadExport(job: Pick<ExportJob, 'Id' | 'Title'>): Promise<void> {
  return download(ExportJobApi.download, { params: { Id: job.Id } }, `${job.Title}.xlsx`);
}
