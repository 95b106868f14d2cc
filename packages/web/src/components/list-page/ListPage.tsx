import { useState, type ReactNode } from 'react';
import { Card, Descriptions, Space, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DeleteOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatSiteTime } from '../../core/site-time.ts';
import { useSessionStore } from '../../stores/session.ts';
import { renderCell, type StatusControl } from './cells.tsx';
import { ListExport } from './ListExport.tsx';
import { FilterBar } from './FilterBar.tsx';
import { ActionButton, CreateButton, RowDeleteButton, RowEditButton } from './buttons.tsx';
import { EditDialog, type Editing } from './FormDialog.tsx';
import { runRowAction, useListRows, useListWrites } from './list-state.ts';
import { useAccessibleTable } from '../table-a11y.ts';
import { canUse } from './permissions.ts';
import type { SortState } from './query.ts';
import type { BatchAction, ColumnDef, ListPageConfig, Row, RowAction, TKey } from './types.ts';
import './list-page.css';

interface Props<T extends Row> {
  config: ListPageConfig<T>;
  /** Shown above the filters (a tree beside the list, a summary). */
  header?: ReactNode;
  /** The dialog title's subject, e.g. the screen title. */
  title: string;
  /** Reload the page every 2 s while this holds for its rows (the export log while jobs are running). */
  refetchWhile?: (items: T[]) => boolean;
}

/**
 * A resource's screen from its declaration: filters, a server-paged and sorted table, empty and loading
 * states, a create/edit dialog, delete with confirmation, batch delete, enable/disable and export.
 * Buttons show only for the codes that may use them; the server checks them again.
 */
export function ListPage<T extends Row>({ config, header, title, refetchWhile }: Props<T>) {
  const { t } = useTranslation();
  const { actions, canWrite, canRead, rowActions, batchActions, showEdit, showRemove, batch } =
    useAllowed(config);
  const rows = useListRows(config, refetchWhile);
  const { filters, defaults, preset, initial, sort, page, selected, setSelected, resource, list } = rows;
  const [editing, setEditing] = useState<Editing<T> | null>(null);
  // A filter the server would refuse (a range over its limit): the rows of the last valid query are not
  // shown under it, nor exported, until it is fixed (issue 27).
  const [filtersValid, setFiltersValid] = useState(true);
  const data = filtersValid ? list.data : undefined;
  const tableRef = useAccessibleTable(title);
  const { refresh, save, remove, statusControl, runBatch } = useListWrites(config, resource, () =>
    setSelected([]),
  );

  const status = statusControl(Boolean(actions.status) && canWrite);
  const columns: ColumnsType<T> = config.columns
    .filter((c) => !c.secondary)
    .map((c) => tableColumn(c, sort, t, status));
  const secondary = config.columns.filter((c) => c.secondary);
  if (showEdit || showRemove || rowActions.length)
    columns.push(
      actionsColumn(t, {
        actions: rowActions,
        onEdit: showEdit ? (row) => setEditing({ item: row }) : undefined,
        onRemove: showRemove ? (row) => remove.mutate([row.Id]) : undefined,
        refresh,
      }),
    );

  const selectedRows = (data?.Items ?? []).filter((item) => selected.includes(item.Id));
  return (
    <Card className="list-page" data-testid={config.testId ?? `list-${resource}`}>
      {header}
      <FilterBar
        filters={filters}
        initialValues={initial}
        resetValues={preset ? defaults : undefined}
        onSearch={rows.search}
        onReset={() => rows.search(defaults)}
        onValidity={setFiltersValid}
      />
      <ListToolbar<T>
        selectedCount={selected.length}
        onCreate={actions.create && config.form && canWrite ? () => setEditing({ item: null }) : undefined}
        onBatchRemove={batch ? () => remove.mutate(selected.map(Number)) : undefined}
        batchActions={batchActions}
        runBatch={(run) => runBatch(run, selectedRows)}
        extra={config.toolbar}
        exporter={
          actions.export && canRead ? (
            <ListExport resource={resource} query={rows.exportQuery} title={title} disabled={!filtersValid} />
          ) : null
        }
      />
      <Table<T>
        ref={tableRef}
        rowKey="Id"
        size="middle"
        columns={columns}
        dataSource={data?.Items ?? []}
        loading={filtersValid && list.isFetching}
        scroll={{ x: 'max-content' }}
        expandable={
          secondary.length
            ? {
                // Fixed, the detail is drawn at the visible width (rc-table does so once a column is fixed);
                // unfixed, a long line in it (a session's stop line) widened the whole table to its own length,
                // and the columns after the first few moved out of view when a row was opened.
                fixed: 'left',
                expandedRowRender: (row) => (
                  <SecondaryCells columns={secondary} row={row} t={t} status={status} />
                ),
              }
            : undefined
        }
        onChange={rows.onTableChange}
        rowSelection={
          batch || batchActions.length
            ? { selectedRowKeys: selected, onChange: setSelected, preserveSelectedRowKeys: false }
            : undefined
        }
        pagination={pagination(page, data, t)}
        locale={{
          emptyText: !filtersValid
            ? t('list.filterInvalid')
            : list.isError
              ? t('list.loadFailed')
              : undefined,
        }}
      />
      {config.form && (
        <EditDialog<T>
          editing={editing}
          title={title}
          form={config.form}
          api={config.api}
          onClose={() => setEditing(null)}
          onSubmit={(body) => save.mutateAsync(body)}
        />
      )}
    </Card>
  );
}

/**
 * What the page says beside its total when retention removed records its range reaches back to (the page's
 * RetainedFrom): "records before {date} were removed", the cutoff as the site's wall time like every time on
 * the screens; nothing otherwise.
 */
export function retentionNote(data: { RetainedFrom?: string } | undefined, t: TFunction): string | undefined {
  if (!data?.RetainedFrom) return undefined;
  return t('list.retainedFrom', { date: formatSiteTime(data.RetainedFrom, 'YYYY-MM-DD HH:mm') });
}

/**
 * The pager. A capped total ("more than 10,000") is not a number of rows: the pager is given one more page
 * than it has seen (this one, and a next one when this one is full), so next and previous keep working. A
 * range that retention cut adds a quiet note after the total (retentionNote).
 */
export function pagination(
  page: { index: number; size: number },
  data: { Items: unknown[]; Total: number; TotalCapped?: boolean; RetainedFrom?: string } | undefined,
  t: TFunction,
) {
  const capped = Boolean(data?.TotalCapped);
  const seen = (page.index - 1) * page.size + (data?.Items.length ?? 0);
  const total = !data
    ? 0
    : capped
      ? Math.max(data.Total + 1, seen + (data.Items.length >= page.size ? 1 : 0))
      : data.Total;
  return {
    current: page.index,
    pageSize: page.size,
    total,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 50, 100],
    showTotal: (): ReactNode => {
      const text = capped
        ? t('list.totalMore', { total: (data?.Total ?? 0).toLocaleString() })
        : t('list.total', { total: data?.Total ?? 0 });
      const note = retentionNote(data, t);
      if (!note) return text;
      return (
        <>
          {text}
          <Typography.Text type="secondary" className="list-page-retained" data-testid="list-retained-from">
            {note}
          </Typography.Text>
        </>
      );
    },
  };
}

/** What the caller's codes allow of the declared actions (the server checks them again). */
function useAllowed<T extends Row>(config: ListPageConfig<T>) {
  const roles = useSessionStore((s) => s.roles);
  const actions = config.actions ?? {};
  const canWrite = canUse(roles, config.write);
  const allowed = <A extends { codes?: readonly string[] }>(list: A[] | undefined) =>
    (list ?? []).filter((a) => canUse(roles, a.codes ?? config.write));
  return {
    actions,
    canWrite,
    canRead: canUse(roles, config.read),
    rowActions: allowed(config.rowActions),
    batchActions: allowed(config.batchActions),
    showEdit: Boolean(actions.edit && config.form) && canWrite,
    showRemove: Boolean(actions.remove) && canWrite,
    batch: Boolean(actions.batchRemove) && canWrite,
  };
}

/** Above the table: create, batch delete, the declared batch actions and extra buttons; the export at the right. */
function ListToolbar<T extends Row>(props: {
  selectedCount: number;
  onCreate: (() => void) | undefined;
  onBatchRemove: (() => void) | undefined;
  batchActions: BatchAction<T>[];
  runBatch(run: (rows: T[]) => Promise<unknown>): void;
  extra: ReactNode;
  exporter: ReactNode;
}) {
  const { t } = useTranslation();
  const { selectedCount, onCreate, onBatchRemove, batchActions, runBatch } = props;
  return (
    <div className="list-page-toolbar">
      <Space wrap>
        {onCreate && <CreateButton onClick={onCreate} />}
        {onBatchRemove && (
          <ActionButton
            label={t('list.batchDelete')}
            confirm={t('list.confirmBatchDelete', { count: selectedCount })}
            danger
            icon={<DeleteOutlined />}
            disabled={selectedCount === 0}
            testId="list-batch-delete"
            onRun={onBatchRemove}
          />
        )}
        {batchActions.map((a) => (
          <ActionButton
            key={a.key}
            label={t(a.label)}
            confirm={a.confirm && String(t(a.confirm, { count: selectedCount } as never))}
            danger={a.danger}
            disabled={selectedCount === 0}
            testId={`batch-${a.key}`}
            onRun={() => runBatch(a.run)}
          />
        ))}
        {props.extra}
      </Space>
      <Space>{props.exporter}</Space>
    </div>
  );
}

/** The rows' own actions, in a column fixed at the right: edit, the declared actions, delete. */
function actionsColumn<T extends Row>(
  t: TFunction,
  props: {
    actions: RowAction<T>[];
    onEdit: ((row: T) => void) | undefined;
    onRemove: ((row: T) => void) | undefined;
    refresh(): Promise<unknown>;
  },
): ColumnsType<T>[number] {
  const { actions, onEdit, onRemove, refresh } = props;
  return {
    key: '__actions',
    title: t('list.actions'),
    fixed: 'right',
    // Many actions wrap onto a second line (at most 180 px wide, list-page.css) rather than widen the column
    // over the table's key columns (issue 21, item 7); each stays one click away.
    render: (_value, row) => (
      <Space size={[4, 0]} wrap className="list-page-actions">
        {onEdit && <RowEditButton onClick={() => onEdit(row)} />}
        {actions
          .filter((a) => !a.visible || a.visible(row))
          .map((a) => (
            <ActionButton
              key={a.key}
              link
              label={t(a.label)}
              confirm={a.confirm && t(a.confirm)}
              danger={a.danger}
              testId={`row-${a.key}`}
              onRun={() => void runRowAction(() => a.run(row), refresh)}
            />
          ))}
        {onRemove && <RowDeleteButton onConfirm={() => onRemove(row)} />}
      </Space>
    ),
  };
}

/** The columns that yield (ColumnDef.secondary), as label and value in the row's expanded detail. */
function SecondaryCells<T extends Row>(props: {
  columns: ColumnDef<T>[];
  row: T;
  t: TFunction;
  status: StatusControl;
}) {
  const { columns, row, t, status } = props;
  return (
    <Descriptions
      size="small"
      column={{ xs: 1, md: 2, xl: 4 }}
      data-testid="row-detail"
      items={columns.map((c) => ({
        key: c.key,
        label: t(c.title),
        children: renderCell(c, row, t, status),
        ...(c.detailSpan ? { span: c.detailSpan } : {}),
      }))}
    />
  );
}

/** A declared column as the table shows it: translated title, sort state, and its cell. */
function tableColumn<T extends Row>(
  c: ColumnDef<T>,
  sort: SortState | null,
  t: TFunction,
  status: StatusControl,
): ColumnsType<T>[number] {
  return {
    key: c.key,
    dataIndex: c.key,
    title: t(c.title),
    width: c.width,
    fixed: c.fixed,
    responsive: c.responsive,
    sorter: c.sort ? true : undefined,
    sortOrder: sort && c.sort && sort.field === c.sort ? (sort.order === 'asc' ? 'ascend' : 'descend') : null,
    render: (_value: unknown, row: T) => renderCell(c, row, t, status),
  };
}

/** The translated title of a declaration key, for pages that pass it to ListPage. */
export function useTitle(key: TKey): string {
  const { t } = useTranslation();
  return t(key) as string;
}
