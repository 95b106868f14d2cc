import { useMemo, useState, type Key, type ReactNode } from 'react';
import { Button, Card, Progress, Space, Table } from 'antd';
import { PageModal, PagePopconfirm } from '../PageModal.tsx';
import type { ColumnsType, TablePaginationConfig } from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import { DeleteOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT } from '@gatehouse/shared';
import { call } from '../../core/api.ts';
import { http } from '../../core/http.ts';
import { DIALOG_MASK, feedback } from '../../core/feedback.tsx';
import { useAreaStore } from '../../stores/area.ts';
import { useSessionStore } from '../../stores/session.ts';
import { renderCell, type StatusControl } from './cells.tsx';
import {
  ExportNeedsParts,
  exportList,
  exportParts,
  type ExportJob,
  type PartsProgress,
} from './export-job.ts';
import { ExportDoneMessage } from './ExportDone.tsx';
import { FilterBar } from './FilterBar.tsx';
import { CreateButton, ExportButton, RowDeleteButton, RowEditButton } from './buttons.tsx';
import { FormDialog } from './FormDialog.tsx';
import { useResourceWrites } from './mutations.ts';
import { useAccessibleTable } from '../table-a11y.ts';
import { canUse } from './permissions.ts';
import { filterQuery, initialFilterValues, listQuery, type FilterValues, type SortState } from './query.ts';
import type { ColumnDef, ListPageConfig, Page, Row, TKey } from './types.ts';
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
  const queryClient = useQueryClient();
  const roles = useSessionStore((s) => s.roles);
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const actions = config.actions ?? {};
  const canWrite = canUse(roles, config.write);
  const canRead = canUse(roles, config.read);
  const filters = useMemo(() => config.filters ?? [], [config.filters]);
  const defaults = useMemo(() => initialFilterValues(filters), [filters]);
  const preset = config.initialFilters;
  const initial = useMemo(() => (preset ? { ...defaults, ...preset } : defaults), [defaults, preset]);

  const [applied, setApplied] = useState(() => filterQuery(filters, initial));
  const [sort, setSort] = useState<SortState | null>(config.defaultSort ?? null);
  const [page, setPage] = useState({ index: 1, size: PAGE_SIZE_DEFAULT });
  const [selected, setSelected] = useState<Key[]>([]);
  const [editing, setEditing] = useState<{ item: T | null } | null>(null);
  const [exporting, setExporting] = useState<ExportJob | null>(null);
  // An export refused for too many rows that parts would take, offered in a dialog; then the parts' progress.
  const [partsOffer, setPartsOffer] = useState<ExportNeedsParts | null>(null);
  const [partsProgress, setPartsProgress] = useState<PartsProgress | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const tableRef = useAccessibleTable(title);

  const resource = config.api?.name ?? config.resource!;
  const base = `/api/${resource}`;
  const query = listQuery(config.fixedQuery, applied, sort, page);
  const list = useQuery({
    queryKey: ['list', resource, areaId, query],
    queryFn: () =>
      config.api
        ? (call(config.api.list, { query } as never) as Promise<Page<T>>)
        : http.get<Page<T>>(base, { query }),
    placeholderData: keepPreviousData,
    ...(refetchWhile
      ? {
          refetchInterval: (q: { state: { data?: Page<T> } }) =>
            refetchWhile(q.state.data?.Items ?? []) ? 2000 : false,
        }
      : {}),
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['list', resource] }),
      ...(config.invalidates ?? []).map((key) =>
        queryClient.invalidateQueries({ queryKey: ['options', key] }),
      ),
      ...(config.refreshes ?? []).map((resource) =>
        queryClient.invalidateQueries({ queryKey: ['list', resource] }),
      ),
    ]);

  const { save, remove } = useResourceWrites({
    ...(config.api ? { api: config.api } : { resource }),
    endpoints: config.endpoints,
    onChanged: () => void refresh(),
    onRemoved: () => setSelected([]),
  });
  const setStatus = useMutation({
    mutationFn: ({ id, disabled }: { id: number; disabled: boolean }) =>
      config.endpoints?.setStatus?.(id, disabled) ??
      (config.api?.setStatus
        ? call(config.api.setStatus, { query: { Id: id, Disabled: disabled } } as never)
        : http.post(`${base}/SetStatus`, undefined, { query: { Id: id, Disabled: disabled } })),
    onMutate: ({ id }) => setBusyId(id),
    onSettled: () => setBusyId(null),
    onSuccess: () => void refresh(),
  });

  async function startExport() {
    try {
      const job = await exportList(
        resource,
        listQuery(config.fixedQuery, applied, sort, null),
        setExporting,
        title,
      );
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
      const jobs = await exportParts(
        resource,
        listQuery(config.fixedQuery, applied, sort, null),
        setPartsProgress,
        title,
      );
      const done = jobs.filter((job) => job.Status === 'done');
      const failed = jobs.find((job) => job.Status === 'failed');
      if (done.length === jobs.length)
        feedback.success(
          <span data-testid="export-parts-done">
            {t('list.exportPartsDone', {
              parts: jobs.length,
              rows: jobs.reduce((sum, job) => sum + job.RowCount, 0),
            })}
            {done.map((job) => (
              <span key={job.Id}>
                {' '}
                <ExportDoneMessage job={job} text="" />
              </span>
            ))}
          </span>,
          10,
        );
      else if (failed) feedback.error(failed.Error ?? t('list.exportFailed'), 3);
      else feedback.info(t('list.exportContinues'));
    } catch {
      // The request client has shown the server's reason.
    } finally {
      setPartsProgress(null);
    }
  }

  const status: StatusControl = {
    editable: Boolean(actions.status) && canWrite,
    busyId,
    onChange: (id, disabled) => setStatus.mutate({ id, disabled }),
  };
  const columns: ColumnsType<T> = config.columns.map((c: ColumnDef<T>) => ({
    key: c.key,
    dataIndex: c.key,
    title: t(c.title),
    width: c.width,
    fixed: c.fixed,
    responsive: c.responsive,
    sorter: c.sort ? true : undefined,
    sortOrder: sort && c.sort && sort.field === c.sort ? (sort.order === 'asc' ? 'ascend' : 'descend') : null,
    render: (_value: unknown, row: T) => renderCell(c, row, t, status),
  }));

  const rowActions = (config.rowActions ?? []).filter((a) => canUse(roles, a.codes ?? config.write));
  const showEdit = Boolean(actions.edit && config.form) && canWrite;
  const showRemove = Boolean(actions.remove) && canWrite;
  if (showEdit || showRemove || rowActions.length) {
    columns.push({
      key: '__actions',
      title: t('list.actions'),
      fixed: 'right',
      render: (_value, row) => (
        <Space size={4} className="list-page-nowrap">
          {showEdit && <RowEditButton onClick={() => setEditing({ item: row })} />}
          {rowActions
            .filter((a) => !a.visible || a.visible(row))
            .map((a) =>
              a.confirm ? (
                <PagePopconfirm
                  key={a.key}
                  title={t(a.confirm)}
                  onConfirm={() => void Promise.resolve(a.run(row)).then(refresh)}
                  okText={t('list.confirm')}
                  cancelText={t('list.cancel')}
                >
                  <Button type="link" size="small" danger={a.danger} data-testid={`row-${a.key}`}>
                    {t(a.label)}
                  </Button>
                </PagePopconfirm>
              ) : (
                <Button
                  key={a.key}
                  type="link"
                  size="small"
                  danger={a.danger}
                  onClick={() => void Promise.resolve(a.run(row)).then(refresh)}
                  data-testid={`row-${a.key}`}
                >
                  {t(a.label)}
                </Button>
              ),
            )}
          {showRemove && <RowDeleteButton onConfirm={() => remove.mutate([row.Id])} />}
        </Space>
      ),
    });
  }

  function onTableChange(
    pagination: TablePaginationConfig,
    _filters: unknown,
    sorter: SorterResult<T> | SorterResult<T>[],
  ) {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const column = config.columns.find((c) => c.key === s?.columnKey);
    const nextSort =
      s?.order && column?.sort
        ? { field: column.sort, order: s.order === 'ascend' ? ('asc' as const) : ('desc' as const) }
        : (config.defaultSort ?? null);
    const sortChanged = JSON.stringify(nextSort) !== JSON.stringify(sort);
    setSort(nextSort);
    setPage({
      index: sortChanged ? 1 : (pagination.current ?? 1),
      size: pagination.pageSize ?? PAGE_SIZE_DEFAULT,
    });
  }

  function search(values: FilterValues) {
    const next = filterQuery(filters, values);
    // Search and Reset mean "reload": the same filters on the first page give the same query key, which
    // TanStack Query would not fetch again, so ask for it.
    const unchanged = page.index === 1 && JSON.stringify(next) === JSON.stringify(applied);
    setApplied(next);
    setPage((p) => ({ ...p, index: 1 }));
    setSelected([]);
    if (unchanged) void list.refetch();
  }

  const batch = Boolean(actions.batchRemove) && canWrite;
  const batchActions = (config.batchActions ?? []).filter((a) => canUse(roles, a.codes ?? config.write));
  const selectedRows = (list.data?.Items ?? []).filter((item) => selected.includes(item.Id));
  const runBatch = (run: (rows: T[]) => Promise<unknown>) =>
    void run(selectedRows).then(
      () => {
        setSelected([]);
        return refresh();
      },
      () => undefined,
    );
  return (
    <Card className="list-page" data-testid={config.testId ?? `list-${resource}`}>
      {header}
      <FilterBar
        filters={filters}
        initialValues={initial}
        resetValues={preset ? defaults : undefined}
        onSearch={search}
        onReset={() => search(defaults)}
      />
      <div className="list-page-toolbar">
        <Space wrap>
          {actions.create && config.form && canWrite && (
            <CreateButton onClick={() => setEditing({ item: null })} />
          )}
          {batch && (
            <PagePopconfirm
              title={t('list.confirmBatchDelete', { count: selected.length })}
              disabled={selected.length === 0}
              onConfirm={() => remove.mutate(selected.map(Number))}
              okText={t('list.confirm')}
              cancelText={t('list.cancel')}
              okButtonProps={{ danger: true }}
            >
              <Button
                danger
                icon={<DeleteOutlined />}
                disabled={selected.length === 0}
                data-testid="list-batch-delete"
              >
                {t('list.batchDelete')}
              </Button>
            </PagePopconfirm>
          )}
          {batchActions.map((a) =>
            a.confirm ? (
              <PagePopconfirm
                key={a.key}
                title={String(t(a.confirm, { count: selected.length } as never))}
                disabled={selected.length === 0}
                onConfirm={() => runBatch(a.run)}
                okText={t('list.confirm')}
                cancelText={t('list.cancel')}
                okButtonProps={{ danger: a.danger }}
              >
                <Button danger={a.danger} disabled={selected.length === 0} data-testid={`batch-${a.key}`}>
                  {t(a.label)}
                </Button>
              </PagePopconfirm>
            ) : (
              <Button
                key={a.key}
                danger={a.danger}
                disabled={selected.length === 0}
                onClick={() => runBatch(a.run)}
                data-testid={`batch-${a.key}`}
              >
                {t(a.label)}
              </Button>
            ),
          )}
          {config.toolbar}
        </Space>
        <Space>
          {exporting && (
            <Progress
              percent={exporting.Progress}
              size="small"
              style={{ width: 120 }}
              aria-label={t('list.export')}
            />
          )}
          {partsProgress && (
            <Progress
              percent={partsProgress.percent}
              size="small"
              style={{ width: 160 }}
              format={() =>
                t('list.exportPartsProgress', {
                  finished: partsProgress.finished,
                  parts: partsProgress.parts,
                })
              }
              aria-label={t('list.export')}
              data-testid="export-parts-progress"
            />
          )}
          {actions.export && canRead && (
            <ExportButton
              loading={exporting !== null || partsProgress !== null}
              onClick={() => void startExport()}
            />
          )}
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
        </Space>
      </div>
      <Table<T>
        ref={tableRef}
        rowKey="Id"
        size="middle"
        columns={columns}
        dataSource={list.data?.Items ?? []}
        loading={list.isFetching}
        scroll={{ x: 'max-content' }}
        onChange={onTableChange}
        rowSelection={
          batch || batchActions.length
            ? { selectedRowKeys: selected, onChange: setSelected, preserveSelectedRowKeys: false }
            : undefined
        }
        pagination={{
          current: page.index,
          pageSize: page.size,
          total: list.data?.Total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          showTotal: (total) => t('list.total', { total }),
        }}
        locale={{ emptyText: list.isError ? t('list.loadFailed') : undefined }}
      />
      {config.form && (
        <FormDialog<T>
          open={editing !== null}
          item={editing?.item ?? null}
          title={`${t(editing?.item ? 'list.edit' : 'list.create')} · ${title}`}
          form={config.form}
          onClose={() => setEditing(null)}
          onSubmit={(body) => save.mutateAsync(body)}
        />
      )}
    </Card>
  );
}

/** The translated title of a declaration key, for pages that pass it to ListPage. */
export function useTitle(key: TKey): string {
  const { t } = useTranslation();
  return t(key) as string;
}
