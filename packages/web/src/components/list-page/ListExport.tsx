import { useState } from 'react';
import { Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageModal } from '../PageModal.tsx';
import { DIALOG_MASK, feedback } from '../../core/feedback.tsx';
import {
  ExportNeedsParts,
  exportList,
  exportParts,
  type ExportJob,
  type PartsProgress,
} from './export-job.ts';
import { ExportDoneMessage } from './ExportDone.tsx';
import { ExportButton } from './buttons.tsx';

interface Props {
  /** The list's resource (the export's URL). */
  resource: string;
  /** The list's query as it stands (filters and sort, no paging). */
  query: Record<string, string | number | boolean>;
  /** The screen title, the export's title. */
  title: string;
  /** Off while the filters are invalid: the query would not be what the filters say. */
  disabled?: boolean;
}

/**
 * A list's export: the button, the job's progress, and when the server refuses for too many rows that parts
 * would take, the offer of an export in parts, then every part's progress and files.
 */
export function ListExport({ resource, query, title, disabled }: Props) {
  const { t } = useTranslation();
  const [exporting, setExporting] = useState<ExportJob | null>(null);
  // An export refused for too many rows that parts would take, offered in a dialog; then the parts' progress.
  const [partsOffer, setPartsOffer] = useState<ExportNeedsParts | null>(null);
  const [partsProgress, setPartsProgress] = useState<PartsProgress | null>(null);

  async function startExport() {
    try {
      const job = await exportList(resource, query, setExporting, title);
      if (job.Status === 'done')
        feedback.success(
          <ExportDoneMessage job={job} text={t('list.exportDone', { rows: job.RowCount })} />,
          8,
        );
      else if (job.Status === 'failed') feedback.error(job.Error ?? t('list.exportFailed'), 3);
      else feedback.info(t('list.exportContinues'));
    } catch (error) {
      // The request client has shown the server's reason (too many rows, too long a range); when parts of at
      // most 3,000 rows would take the view, offer them.
      if (error instanceof ExportNeedsParts) setPartsOffer(error);
    } finally {
      setExporting(null);
    }
  }

  async function startParts() {
    setPartsOffer(null);
    setPartsProgress({ finished: 0, parts: partsOffer?.parts ?? 0, percent: 0 });
    try {
      const jobs = await exportParts(resource, query, setPartsProgress, title);
      const done = jobs.filter((job) => job.Status === 'done');
      const failed = jobs.find((job) => job.Status === 'failed');
      if (done.length === jobs.length) feedback.success(<PartsDone jobs={jobs} />, 10);
      else if (failed) feedback.error(failed.Error ?? t('list.exportFailed'), 3);
      else feedback.info(t('list.exportContinues'));
    } catch {
      // The request client has shown the server's reason.
    } finally {
      setPartsProgress(null);
    }
  }

  return (
    <>
      <ExportProgress exporting={exporting} parts={partsProgress} />
      <ExportButton
        loading={exporting !== null || partsProgress !== null}
        disabled={disabled}
        onClick={() => void startExport()}
      />
      <PageModal
        open={partsOffer !== null}
        title={t('list.exportPartsTitle')}
        okText={partsOffer ? t('list.exportPartsOk', { parts: partsOffer.parts }) : undefined}
        cancelText={t('list.cancel')}
        onOk={() => void startParts()}
        onCancel={() => setPartsOffer(null)}
        mask={DIALOG_MASK}
        data-testid="export-parts-dialog"
      >
        {partsOffer &&
          t('list.exportPartsConfirm', {
            count: partsOffer.count,
            max: partsOffer.max,
            parts: partsOffer.parts,
          })}
      </PageModal>
    </>
  );
}

/** The running export's progress, or its parts' (how many of them are finished). */
function ExportProgress({ exporting, parts }: { exporting: ExportJob | null; parts: PartsProgress | null }) {
  const { t } = useTranslation();
  return (
    <>
      {exporting && (
        <Progress
          percent={exporting.Progress}
          size="small"
          style={{ width: 120 }}
          aria-label={t('list.export')}
        />
      )}
      {parts && (
        <Progress
          percent={parts.percent}
          size="small"
          style={{ width: 160 }}
          format={() => t('list.exportPartsProgress', { finished: parts.finished, parts: parts.parts })}
          aria-label={t('list.export')}
          data-testid="export-parts-progress"
        />
      )}
    </>
  );
}

/** Every part done: how many parts and rows, and a link to each file. */
function PartsDone({ jobs }: { jobs: ExportJob[] }) {
  const { t } = useTranslation();
  return (
    <span data-testid="export-parts-done">
      {t('list.exportPartsDone', {
        parts: jobs.length,
        rows: jobs.reduce((sum, job) => sum + job.RowCount, 0),
      })}
      {jobs.map((job) => (
        <span key={job.Id}>
          {' '}
          <ExportDoneMessage job={job} text="" />
        </span>
      ))}
    </span>
  );
}
