import type { TFunction } from 'i18next';
import { http } from '../../../core/http.ts';
import { feedback } from '../../../core/feedback.tsx';
import type { BatchAction, Row, RowAction, TKey } from '../../../components/list-page/index.ts';

/** The two registration pools (their API resources). */
export type PoolResource = 'DeviceRegistration' | 'CardRegistration';

export interface PoolRow extends Row {
  Id: number;
  AreaId: number | null;
}

interface PoolActionOptions<T extends PoolRow> {
  resource: PoolResource;
  t: TFunction;
  /** From usePoolAssign. */
  ask(ids: number[], subject: string): Promise<void>;
  unassign(ids: number[]): Promise<unknown>;
  /** The dialog's subject for one row and for a batch. */
  assignOne(row: T): string;
  assignMany(count: number): string;
  confirmUnassign: TKey;
  confirmBatchUnassign: TKey;
  /** Beyond being assigned (a card held by somebody stays in its area). */
  canUnassign?(row: T): boolean;
}

/**
 * The pool's row and batch actions, alike for devices and cards: assign to an area, take back to the pool,
 * delete while in the pool.
 */
export function poolActions<T extends PoolRow>(o: PoolActionOptions<T>) {
  const { t } = o;
  const takeBack = async (ids: number[]) => {
    await o.unassign(ids);
    feedback.success(t('accessControl.message.unassigned'));
  };
  const rowActions: RowAction<T>[] = [
    {
      key: 'assign',
      label: 'acUi.pool.assign',
      visible: (row) => row.AreaId === null,
      run: (row) => o.ask([row.Id], o.assignOne(row)).catch(() => undefined),
    },
    {
      key: 'unassign',
      label: 'acUi.pool.unassign',
      visible: (row) => row.AreaId !== null && (o.canUnassign?.(row) ?? true),
      confirm: o.confirmUnassign,
      run: (row) => takeBack([row.Id]),
    },
    {
      key: 'delete',
      label: 'list.delete',
      danger: true,
      visible: (row) => row.AreaId === null,
      confirm: 'list.confirmDelete',
      run: async (row) => {
        await http.del(`/api/${o.resource}/${row.Id}`);
        feedback.success(t('list.deleted', { count: 1 }));
      },
    },
  ];
  const batchActions: BatchAction<T>[] = [
    {
      key: 'assign',
      label: 'acUi.pool.batchAssign',
      run: (rows) =>
        o.ask(
          rows.map((r) => r.Id),
          o.assignMany(rows.length),
        ),
    },
    {
      key: 'unassign',
      label: 'acUi.pool.batchUnassign',
      confirm: o.confirmBatchUnassign,
      run: (rows) => takeBack(rows.map((r) => r.Id)),
    },
  ];
  return { rowActions, batchActions };
}
