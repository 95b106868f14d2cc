import { type CardRegistrationApi, type DeviceRegistrationApi } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { i18next } from '../../../i18n/index.ts';
import type { BatchAction, Row, RowAction, TKey } from '../../../components/list-page/index.ts';
import { ask, type Ask, type DialogState } from '../dialog-state.ts';

/** The two registration pools (their API resources). */
export type PoolApi = typeof DeviceRegistrationApi | typeof CardRegistrationApi;

export interface PoolRow extends Row {
  Id: number;
  AreaId: number | null;
}

/** What assigning asks for: the rows, and how the dialog names them ("3 devices", "serial 1234…"). */
export interface AssignSubject {
  ids: number[];
  subject: string;
}

interface PoolActionOptions<T extends PoolRow> {
  api: PoolApi;
  /** The assign dialog. */
  assigning: DialogState<Ask<AssignSubject>>;
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
 * delete while in the pool. Each resolves once done, and the list reloads.
 */
export function poolActions<T extends PoolRow>(o: PoolActionOptions<T>) {
  const assign = (ids: number[], subject: string) => ask(o.assigning, { ids, subject });
  const takeBack = async (ids: number[]) => {
    await call(o.api.unassign, { body: { Ids: ids } });
    feedback.success(i18next.t('accessControl.message.unassigned'));
  };
  const rowActions: RowAction<T>[] = [
    {
      key: 'assign',
      label: 'acUi.pool.assign',
      visible: (row) => row.AreaId === null,
      run: (row) => assign([row.Id], o.assignOne(row)).catch(() => undefined),
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
        await call(o.api.remove, { params: { Id: row.Id } });
        feedback.success(i18next.t('list.deleted', { count: 1 }));
      },
    },
  ];
  const batchActions: BatchAction<T>[] = [
    {
      key: 'assign',
      label: 'acUi.pool.batchAssign',
      run: (rows) =>
        assign(
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
