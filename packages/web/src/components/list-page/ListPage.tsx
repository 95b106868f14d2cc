import { useMemo, useState, type Key, type ReactNode } from 'react';
import { Button, Card, Progress, Space, Table, Typography } from 'antd';
import { PagePopconfirm } from '../PageModal.tsx';
import type { ColumnsType, TablePaginationConfig } from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import { DeleteOutlined, DownloadOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT } from '@gatehouse/shared';
import { http } from '../../app/http.ts';
import { feedback } from '../../app/feedback.tsx';
import { useAreaStore } from '../../stores/area.ts';
import { useSessionStore } from '../../stores/session.ts';
import { CentsCell, EllipsisCell, EnumCell, InstantCell, StatusCell } from './cells.tsx';
import { exportList, type ExportJob } from './export-job.ts';
import { FilterBar } from './FilterBar.tsx';
import { FormDialog } from './FormDialog.tsx';
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
}

/**
 * A resource's screen from its declaration: filters, a server-paged and sorted table, empty and loading
 * states, a create/edit dialog, delete with confirmation, batch delete, enable/disable and export.
 * Buttons show only for the codes that may use them; the server checks them again.
 */
export function ListPage<T extends Row>({ config, header, title }: Props<T>) {
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
  const [busyId, setBusyId] = useState<number | null>(null);

  const base = `/api/${config.resource}`;
  const query = listQuery(config.fixedQuery, applied, sort, page);
  const list = useQuery({
    queryKey: ['list', config.resource, areaId, query],
    queryFn: () => http.get<Page<T>>(base, { query }),
    placeholderData: keepPreviousData,
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['list', config.resource] }),
      ...(config.invalidates ?? []).map((key) =>
        queryClient.invalidateQueries({ queryKey: ['options', key] }),
      ),
      ...(config.refreshes ?? []).map((resource) =>
        queryClient.invalidateQueries({ queryKey: ['list', resource] }),
      ),
    ]);

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      'Id' in body
        ? (config.endpoints?.update?.(body) ?? http.put<T>(base, body, { quiet: true }))
        : (config.endpoints?.create?.(body) ?? http.post<T>(base, body, { quiet: true })),
    onSuccess: (_data, body) => {
      feedback.success(t('Id' in body ? 'list.saved' : 'list.created'));
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (ids: number[]) =>
      config.endpoints?.remove?.(ids) ??
      (ids.length === 1 ? http.del(`${base}/${ids[0]}`) : http.post(`${base}/BatchDelete`, { Ids: ids })),
    onSuccess: (_data, ids) => {
      feedback.success(t('list.deleted', { count: ids.length }));
      setSelected([]);
      void refresh();
    },
  });
  const setStatus = useMutation({
    mutationFn: ({ id, disabled }: { id: number; disabled: boolean }) =>
      config.endpoints?.setStatus?.(id, disabled) ??
      http.post(`${base}/SetStatus`, undefined, { query: { Id: id, Disabled: disabled } }),
    onMutate: ({ id }) => setBusyId(id),
    onSettled: () => setBusyId(null),
    onSuccess: () => void refresh(),
  });

  async function startExport() {
    try {
      const job = await exportList(
        config.resource,
        listQuery(config.fixedQuery, applied, sort, null),
        setExporting,
      );
      if (job.Status === 'done') feedback.success(t('list.exportDone', { rows: job.RowCount }));
      else if (job.Status === 'failed') feedback.error(job.Error ?? t('list.exportFailed'), 3);
      else feedback.info(t('list.exportContinues'));
    } catch {
      // The request client has shown the server's reason (too many rows, too long a range).
    } finally {
      setExporting(null);
    }
  }

  const columns: ColumnsType<T> = config.columns.map((c: ColumnDef<T>) => ({
    key: c.key,
    dataIndex: c.key,
    title: t(c.title),
    width: c.width,
    fixed: c.fixed,
    responsive: c.responsive,
    sorter: c.sort ? true : undefined,
    sortOrder: sort && c.sort && sort.field === c.sort ? (sort.order === 'asc' ? 'ascend' : 'descend') : null,
    render: (_value: unknown, row: T) => {
      if (c.render) return c.render(row, (key, options) => String(t(key, options as never)));
      const value = row[c.key];
      switch (c.kind) {
        case 'instant':
          return <InstantCell value={value} />;
        case 'enum':
          return c.enumDef ? <EnumCell def={c.enumDef} value={value} /> : String(value ?? '');
        case 'cents':
          return <CentsCell value={value} />;
        case 'status':
          return (
            <StatusCell
              disabled={Boolean(value)}
              editable={Boolean(actions.status) && canWrite}
              loading={busyId === row.Id}
              onChange={(disabled) => setStatus.mutate({ id: row.Id, disabled })}
            />
          );
        default:
          if (c.ellipsis) return <EllipsisCell value={value} />;
          return value === null || value === undefined || value === '' ? (
            <Typography.Text type="secondary">-</Typography.Text>
          ) : (
            String(value)
          );
      }
    },
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
          {showEdit && (
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              onClick={() => setEditing({ item: row })}
              data-testid="row-edit"
            >
              {t('list.edit')}
            </Button>
          )}
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
          {showRemove && (
            <PagePopconfirm
              title={t('list.confirmDelete')}
              onConfirm={() => remove.mutate([row.Id])}
              okText={t('list.confirm')}
              cancelText={t('list.cancel')}
              okButtonProps={{ danger: true }}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid="row-delete">
                {t('list.delete')}
              </Button>
            </PagePopconfirm>
          )}
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
    setApplied(filterQuery(filters, values));
    setPage((p) => ({ ...p, index: 1 }));
    setSelected([]);
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
    <Card className="list-page" data-testid={config.testId ?? `list-${config.resource}`}>
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
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing({ item: null })}
              data-testid="list-create"
            >
              {t('list.create')}
            </Button>
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
          {exporting && <Progress percent={exporting.Progress} size="small" style={{ width: 120 }} />}
          {actions.export && canRead && (
            <Button
              icon={<DownloadOutlined />}
              loading={exporting !== null}
              onClick={() => void startExport()}
              data-testid="list-export"
            >
              {t('list.export')}
            </Button>
          )}
        </Space>
      </div>
      <Table<T>
        rowKey="Id"
        size="middle"
        columns={columns}
        dataSource={list.data?.Items ?? []}
        loading={list.isFetching}
        scroll={{ x: config.scrollX ?? 'max-content' }}
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
