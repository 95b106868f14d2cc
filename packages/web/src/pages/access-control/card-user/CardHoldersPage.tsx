import { Button } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CardUserApi, nation, ACCESS_CONTROL_ADMIN, ACCESS_CONTROL_ANY } from '@gatehouse/shared';
import {
  ListPage,
  useCan,
  type FilterDef,
  type ListPageConfig,
} from '../../../components/list-page/index.ts';
import { CardNumbersCell, ValidityCell } from '../cells.tsx';
import { ask, dialogState, type Ask } from '../dialog-state.ts';
import { reloadList } from '../live.ts';
import { accessCheckAction, accessCheckLink } from '../access-check/links.ts';
import { ExtendDialog } from './ExtendDialog.tsx';
import { holderForm, holderGroupFilters, type HolderRow } from './holder-form.tsx';
import { ImportDialog } from './ImportDialog.tsx';
import '../access-control.css';
import { enumFilter } from '../options.ts';

const api = CardUserApi;
const extending = dialogState<Ask<HolderRow[]>>();
const importing = dialogState<true>();

/** Validity state filter: still valid, or lapsed (the end in the past), as of when the filter is applied. */
const validityFilter: FilterDef = {
  name: 'Validity',
  label: 'acUi.holder.validity',
  kind: 'select',
  width: 120,
  options: {
    kind: 'static',
    options: (t) => [
      { value: 'valid', label: t('acUi.holder.valid') },
      { value: 'expired', label: t('accessControl.field.Expired') },
    ],
  },
  toQuery: (value): Record<string, string> =>
    value === 'expired' ? { ValidToTo: new Date().toISOString() } : { ValidToFrom: new Date().toISOString() },
};

/** Import from the .xlsx template is the Admin's. */
function ImportButton() {
  const { t } = useTranslation();
  const canImport = useCan(ACCESS_CONTROL_ADMIN);
  if (!canImport) return null;
  return (
    <Button icon={<UploadOutlined />} onClick={() => importing.open(true)} data-testid="import-holders">
      {t('acUi.import.open')}
    </Button>
  );
}

/**
 * Card holders (Admin or User): add, edit, disable/enable and extend (each writes its change record; an
 * extension also a renewal record); delete one nothing depends on (the server's 409 names what remains).
 */
/** The holder's access check, on their first card (the door is chosen there). */
const checkHolder = accessCheckAction<HolderRow>(
  (row) => ({ CardNumber: row.CardNumbers[0] }),
  (row) => row.CardNumbers.length > 0,
);

const config: ListPageConfig<HolderRow> = {
  api,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ANY,
  actions: { create: true, edit: true, remove: true, status: true, export: true },
  defaultSort: { field: 'CreatedAt', order: 'desc' },
  filters: [
    {
      name: 'Keyword',
      label: 'adminUi.keyword',
      kind: 'text',
      placeholder: 'acUi.holder.keyword',
      width: 250,
    },
    ...holderGroupFilters,
    enumFilter('Nation', 'accessControl.field.Nation', nation, 130),
    validityFilter,
    { name: 'Disabled', label: 'accessControl.field.Status', kind: 'bool' },
  ],
  columns: [
    { key: 'Name', title: 'accessControl.field.Name', sort: 'Name', width: 80, fixed: 'left' },
    { key: 'Phone', title: 'accessControl.field.Phone', width: 115 },
    { key: 'CitizenId', title: 'accessControl.field.CitizenId', width: 175 },
    // Less asked-for columns appear on wide screens only, so status and actions fit at 1366 px.
    {
      key: 'Nation',
      title: 'accessControl.field.Nation',
      kind: 'enum',
      enumDef: nation,
      width: 90,
      responsive: ['xxl'],
    },
    { key: 'DepartmentName', title: 'accessControl.field.Department', ellipsis: true, width: 120 },
    {
      key: 'PeopleGroupName',
      title: 'accessControl.field.PeopleGroup',
      ellipsis: true,
      width: 120,
      responsive: ['xxl'],
    },
    { key: 'PeopleTypeName', title: 'accessControl.field.PeopleType', width: 100, responsive: ['xxl'] },
    {
      key: 'CardNumbers',
      title: 'accessControl.field.Cards',
      width: 140,
      // Each card leads to its access check ("why does my card not open the east gate?").
      render: (row) => (
        <CardNumbersCell
          numbers={row.CardNumbers}
          max={1}
          link={(card) => accessCheckLink({ CardNumber: card })}
        />
      ),
    },
    {
      key: 'ValidTo',
      title: 'acUi.holder.validity',
      sort: 'ValidTo',
      width: 170,
      render: (row) => <ValidityCell from={row.ValidFrom} to={row.ValidTo} stacked />,
    },
    {
      key: 'AuthorizationCount',
      title: 'accessControl.field.AuthorizationCount',
      kind: 'number',
      width: 80,
      responsive: ['xxl'],
    },
    { key: 'Disabled', title: 'accessControl.field.Status', kind: 'status', width: 100 },
  ],
  form: holderForm,
  rowActions: [
    {
      key: 'extend',
      label: 'acUi.holder.extend',
      run: (row) => ask(extending, [row]).catch(() => undefined),
    },
    checkHolder.action,
  ],
  batchActions: [{ key: 'extend', label: 'acUi.holder.batchExtend', run: (rows) => ask(extending, rows) }],
  toolbar: <ImportButton />,
};

export default function CardHoldersPage() {
  const { t } = useTranslation();
  checkHolder.useFollow();
  const queryClient = useQueryClient();
  const extension = extending.useValue();
  const importOpen = importing.useValue() !== null;
  return (
    <>
      <ListPage config={config} title={t('route.cardHolders')} />
      <ExtendDialog request={extension} />
      <ImportDialog
        open={importOpen}
        onClose={importing.close}
        onImported={() => {
          importing.close();
          void reloadList(queryClient, api.name);
        }}
      />
    </>
  );
}
