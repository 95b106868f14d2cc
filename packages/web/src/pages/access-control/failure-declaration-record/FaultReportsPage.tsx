import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ACCESS_CONTROL_ANY, FAULT, FailureDeclarationRecordApi, faultReportStatus } from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { TwoLineCell } from '../cells.tsx';
import { dialogState } from '../dialog-state.ts';
import { reloadList } from '../live.ts';
import { deviceField, deviceFilter, enumFilter, handlerOptions } from '../options.ts';
import { recordRange } from '../record-range.ts';
import { DeviceChannelSelect } from './DeviceChannelSelect.tsx';
import { HistoryDialog } from './HistoryDialog.tsx';
import { ProgressDialog } from './ProgressDialog.tsx';
import type { FaultRow } from './types.ts';
import '../access-control.css';

const api = FailureDeclarationRecordApi;
const progressing = dialogState<FaultRow>();
const history = dialogState<FaultRow>();

/**
 * Fault reports (Admin or User): operators report a fault of a device or one of its doors, hand it to one
 * of the area's operator staff and move it forward to resolved. The list opens without a time range, so an
 * open report never hides because it is old; exporting asks for a range (at most 61 days).
 */
const config: ListPageConfig<FaultRow> = {
  api,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ANY,
  actions: { create: true, export: true },
  defaultSort: { field: 'ReportedAt', order: 'desc' },
  filters: [
    recordRange('accessControl.field.ReportedAt', null),
    enumFilter('Status', 'accessControl.field.FaultStatus', faultReportStatus, 120),
    deviceFilter,
    {
      name: 'HandlerId',
      label: 'accessControl.field.Handler',
      kind: 'select',
      options: handlerOptions,
      width: 200,
    },
    { name: 'Keyword', label: 'adminUi.keyword', kind: 'text', placeholder: 'acUi.fault.keyword' },
  ],
  columns: [
    {
      key: 'ReportedAt',
      title: 'accessControl.field.ReportedAt',
      kind: 'instant',
      sort: 'ReportedAt',
      width: 170,
    },
    {
      key: 'DeviceName',
      title: 'accessControl.field.DeviceName',
      width: 170,
      render: (row, tr) => (
        <TwoLineCell main={row.DeviceName} sub={row.ChannelName ?? tr('acUi.fault.wholeDevice')} />
      ),
    },
    { key: 'Description', title: 'accessControl.field.Description', ellipsis: true },
    {
      key: 'Status',
      title: 'accessControl.field.FaultStatus',
      kind: 'enum',
      enumDef: faultReportStatus,
      sort: 'Status',
      width: 100,
    },
    { key: 'HandlerName', title: 'accessControl.field.Handler', width: 100 },
    { key: 'ReporterName', title: 'accessControl.field.Reporter', width: 100, responsive: ['xxl'] },
    { key: 'ResolvedAt', title: 'accessControl.field.ResolvedAt', kind: 'instant', width: 170 },
  ],
  form: {
    width: 640,
    fields: [
      deviceField,
      {
        name: 'ChannelId',
        label: 'accessControl.field.ChannelName',
        kind: 'select',
        extra: 'acUi.fault.channelHint',
        render: (form) => <DeviceChannelSelect form={form} />,
      },
      {
        name: 'Description',
        label: 'accessControl.field.Description',
        kind: 'textarea',
        required: true,
        maxLength: 500,
      },
      { name: 'HandlerId', label: 'accessControl.field.Handler', kind: 'select', options: handlerOptions },
    ],
  },
  rowActions: [
    {
      key: 'progress',
      label: 'acUi.fault.progress',
      visible: (row) => row.Status !== FAULT.resolved,
      run: (row) => progressing.open(row),
    },
    {
      key: 'history',
      label: 'acUi.fault.history',
      codes: ACCESS_CONTROL_ANY,
      run: (row) => history.open(row),
    },
  ],
};

export default function FaultReportsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const progress = progressing.useValue();
  const shown = history.useValue();
  return (
    <>
      <ListPage config={config} title={t('route.faultReports')} />
      <ProgressDialog
        item={progress}
        onClose={progressing.close}
        onSaved={() => {
          progressing.close();
          void reloadList(queryClient, api.name);
        }}
      />
      <HistoryDialog item={shown} onClose={history.close} />
    </>
  );
}
