import { http } from '../../app/http.ts';
import { downloadFile } from './download.ts';

export interface ExportJob {
  Id: number;
  Resource: string;
  Title: string;
  Status: 'pending' | 'running' | 'done' | 'failed' | 'expired';
  Progress: number;
  RowCount: number;
  Size: number;
  FileName: string | null;
  Error: string | null;
  UserName: string;
  CreatedAt: string;
  FinishedAt: string | null;
  ExpiresAt: string | null;
}

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
): Promise<ExportJob> {
  // The server reads these as the list reads its URL (Disabled=false, StaffType=2), whatever their JSON types.
  let job = await http.post<ExportJob>('/api/ExportJob', { Resource: resource, Query: query });
  const started = Date.now();
  while (job.Status === 'pending' || job.Status === 'running') {
    onProgress(job);
    if (Date.now() - started > POLL_LIMIT_MS) return job;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    job = await http.get<ExportJob>(`/api/ExportJob/${job.Id}`);
  }
  onProgress(job);
  if (job.Status === 'done') await downloadExport(job);
  return job;
}

export function downloadExport(job: Pick<ExportJob, 'Id' | 'Title'>): Promise<void> {
  return downloadFile(`/api/ExportJob/${job.Id}/Download`, `${job.Title}.xlsx`);
}
