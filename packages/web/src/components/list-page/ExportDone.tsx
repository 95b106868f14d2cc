import type { ExportJob } from './export-job.ts';
import { downloadExport } from './export-job.ts';

/**
 * The export-finished message with a link to its file: the browser may have blocked or hidden the automatic
 * download, so the operator can fetch it again from here (the link also leads to the export log, where the
 * file stays until it expires).
 */
export function ExportDoneMessage({ job, text }: { job: Pick<ExportJob, 'Id' | 'Title'>; text: string }) {
  return (
    <span data-testid="export-done">
      {text}{' '}
      <a
        href="#/export/log"
        data-testid="export-done-link"
        onClick={(event) => {
          event.preventDefault();
          // A refusal (expired meanwhile) comes back as a RequestError; the log page explains it.
          void downloadExport(job).catch(() => undefined);
        }}
      >
        {job.Title}.xlsx
      </a>
    </span>
  );
}
