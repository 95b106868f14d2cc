import { useCallback, useMemo, useState } from 'react';
import { Button } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { nation, ACCESS_CONTROL_ADMIN, ACCESS_CONTROL_ANY } from '@gatehouse/shared';
import {
  ListPage,
  useCan,
  type FilterDef,
  type ListPageConfig,
} from '../../../components/list-page/index.ts';
import { departmentOptions, peopleGroupOptions, peopleTypeOptions } from '../../options.ts';
import { CardNumbersCell, ValidityCell } from '../cells.tsx';
import { ExtendDialog, type ExtendRequest } from './ExtendDialog.tsx';
import { holderForm, type HolderRow } from './holder-form.tsx';
import { ImportDialog } from './ImportDialog.tsx';
import '../access-control.css';

const RESOURCE = 'CardUser';

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

/**
 * Card holders (Admin or User): add, edit, disable/enable and extend (each writes its change record; an
 * extension also a renewal record); delete one nothing depends on (the server's 409 names what remains).
 * Import from the .xlsx template is the Admin's.
 */
export default function CardHoldersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canImport = useCan(ACCESS_CONTROL_ADMIN);
  const [importing, setImporting] = useState(false);
  const [extending, setExtending] = useState<ExtendRequest | null>(null);

  const askExtend = useCallback(
    (holders: HolderRow[]) =>
      new Promise<void>((resolve, reject) =>
        setExtending({
          holders,
          done: () => {
            setExtending(null);
            void queryClient.invalidateQueries({ queryKey: ['list', RESOURCE] });
            resolve();
          },
          cancel: () => {
            setExtending(null);
            reject(new Error('cancelled'));
          },
        }),
      ),
    [queryClient],
  );

  const config = useMemo<ListPageConfig<HolderRow>>(
    () => ({
      resource: RESOURCE,
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
        {
          name: 'DepartmentId',
          label: 'accessControl.field.Department',
          kind: 'treeSelect',
          options: departmentOptions,
          width: 200,
        },
        {
          name: 'PeopleGroupId',
          label: 'accessControl.field.PeopleGroup',
          kind: 'select',
          options: peopleGroupOptions,
        },
        {
          name: 'PeopleTypeId',
          label: 'accessControl.field.PeopleType',
          kind: 'select',
          options: peopleTypeOptions,
          width: 140,
        },
        {
          name: 'Nation',
          label: 'accessControl.field.Nation',
          kind: 'select',
          options: { kind: 'enum', def: nation },
          width: 130,
        },
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
          render: (row) => <CardNumbersCell numbers={row.CardNumbers} max={1} />,
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
        { key: 'extend', label: 'acUi.holder.extend', run: (row) => askExtend([row]).catch(() => undefined) },
      ],
      batchActions: [{ key: 'extend', label: 'acUi.holder.batchExtend', run: (rows) => askExtend(rows) }],
      toolbar: canImport ? (
        <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="import-holders">
          {t('acUi.import.open')}
        </Button>
      ) : null,
    }),
    [askExtend, canImport, t],
  );

  return (
    <>
      <ListPage config={config} title={t('route.cardHolders')} />
      <ExtendDialog request={extending} />
      <ImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        onImported={() => {
          setImporting(false);
          void queryClient.invalidateQueries({ queryKey: ['list', RESOURCE] });
        }}
      />
    </>
  );
}
