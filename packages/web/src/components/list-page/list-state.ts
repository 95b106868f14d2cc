import { useMemo, useState, type Key } from 'react';
import type { TablePaginationConfig } from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PAGE_SIZE_DEFAULT } from '@gatehouse/shared';
import { call } from '../../core/api.ts';
import { RequestError } from '../../core/request.ts';
import { useAreaStore } from '../../stores/area.ts';
import type { StatusControl } from './cells.tsx';
import { useResourceWrites } from './mutations.ts';
import { filterQuery, initialFilterValues, listQuery, type FilterValues, type SortState } from './query.ts';
import type { ListPageConfig, Page, Row } from './types.ts';

/**
 * Runs a row's action, then reloads the list. A refusal (the server's answer with its reason: a controller
 * offline, or no instance driving it now) was already shown by the client in the operator's language: it ends
 * here rather than as an unhandled rejection in the error log. Any other failure still goes there.
 */
export async function runRowAction(run: () => unknown, refresh: () => unknown): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof RequestError) return;
    throw error;
  }
  await refresh();
}

/**
 * A list's rows and what selects them: the filters (defaults, preset, applied), sort, page and ticked rows,
 * the page the server answers (reloaded every 2 s while `refetchWhile` holds), Search/Reset and the table's
 * paging and sorting.
 */
export function useListRows<T extends Row>(
  config: ListPageConfig<T>,
  refetchWhile?: (items: T[]) => boolean,
) {
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const filters = useMemo(() => config.filters ?? [], [config.filters]);
  const defaults = useMemo(() => initialFilterValues(filters), [filters]);
  const preset = config.initialFilters;
  const initial = useMemo(() => (preset ? { ...defaults, ...preset } : defaults), [defaults, preset]);

  const [applied, setApplied] = useState(() => filterQuery(filters, initial));
  const [sort, setSort] = useState<SortState | null>(config.defaultSort ?? null);
  const [page, setPage] = useState({ index: 1, size: PAGE_SIZE_DEFAULT });
  const [selected, setSelected] = useState<Key[]>([]);

  const resource = config.api.name;
  const query = listQuery(config.fixedQuery, applied, sort, page);
  const list = useQuery({
    queryKey: ['list', resource, areaId, query],
    queryFn: () => call(config.api.list, { query } as never) as Promise<Page<T>>,
    placeholderData: keepPreviousData,
    ...(refetchWhile
      ? {
          refetchInterval: (q: { state: { data?: Page<T> } }) =>
            refetchWhile(q.state.data?.Items ?? []) ? 2000 : false,
        }
      : {}),
  });

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

  return {
    filters,
    defaults,
    preset,
    initial,
    sort,
    page,
    selected,
    setSelected,
    resource,
    list,
    /** The list's query without paging: what an export takes. */
    exportQuery: listQuery(config.fixedQuery, applied, sort, null),
    search,
    onTableChange,
  };
}

/**
 * A list's writes: save and delete (useResourceWrites), enable/disable with the row it is busy on, and the
 * reload after each of them (the list, the options and lists it names).
 */
export function useListWrites<T extends Row>(
  config: ListPageConfig<T>,
  resource: string,
  onRemoved: () => void,
) {
  const queryClient = useQueryClient();
  const [busyId, setBusyId] = useState<number | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['list', resource] }),
      ...(config.invalidates ?? []).map((key) =>
        queryClient.invalidateQueries({ queryKey: ['options', key] }),
      ),
      ...(config.refreshes ?? []).map((other) =>
        queryClient.invalidateQueries({ queryKey: ['list', other] }),
      ),
    ]);
  const { save, remove } = useResourceWrites({
    api: config.api,
    endpoints: config.endpoints,
    onChanged: () => void refresh(),
    onRemoved,
  });
  const setStatus = useMutation({
    mutationFn: ({ id, disabled }: { id: number; disabled: boolean }) =>
      config.endpoints?.setStatus?.(id, disabled) ??
      call(config.api.setStatus!, { query: { Id: id, Disabled: disabled } } as never),
    onMutate: ({ id }) => setBusyId(id),
    onSettled: () => setBusyId(null),
    onSuccess: () => void refresh(),
  });
  /** Runs a batch action on the ticked rows; then clears the ticks and reloads (a refusal has been shown). */
  const runBatch = (run: (rows: T[]) => Promise<unknown>, rows: T[]) =>
    void run(rows).then(
      () => {
        onRemoved();
        return refresh();
      },
      () => undefined,
    );
  /** The status cells' switch: editable or not, the row it is busy on, and what a change does. */
  const statusControl = (editable: boolean): StatusControl => ({
    editable,
    busyId,
    onChange: (id, disabled) => setStatus.mutate({ id, disabled }),
  });
  return { refresh, save, remove, statusControl, runBatch };
}
