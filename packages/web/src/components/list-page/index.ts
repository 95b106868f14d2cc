export { ListPage, useTitle } from './ListPage.tsx';
export { FormDialog } from './FormDialog.tsx';
export { OptionSelect } from './OptionSelect.tsx';
export { useCan, canUse } from './permissions.ts';
export { downloadFile } from '../../core/download.ts';
export { exportList, downloadExport, type ExportJob } from './export-job.ts';
export { InstantCell, EnumCell, CentsCell, StatusCell, EllipsisCell } from './cells.tsx';
export type * from './types.ts';
