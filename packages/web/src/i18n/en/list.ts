import type { CatalogueShape } from '@gatehouse/shared';
import type { list as zh } from '../zh/list.ts';

export const list: CatalogueShape<typeof zh> = {
  choose: 'Select',
  enter: 'Enter',
  search: 'Search',
  reset: 'Reset',
  create: 'Add',
  edit: 'Edit',
  delete: 'Delete',
  batchDelete: 'Delete selected',
  confirmDelete: 'Delete this record?',
  confirmBatchDelete: 'Delete the {{count}} selected records?',
  confirm: 'OK',
  cancel: 'Cancel',
  save: 'Save',
  saved: 'Saved',
  created: 'Added',
  deleted: '{{count}} deleted',
  actions: 'Actions',
  export: 'Export',
  exportDone: 'Export finished: {{rows}} rows',
  exportFailed: 'Export failed',
  exportContinues: 'The export is still running; download it from the export log when it is done',
  total: '{{total}} in total',
  loadFailed: 'Could not load; try again',
  maxDays: 'At most {{days}} days',
};
