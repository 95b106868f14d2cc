import { SUPER_ADMIN } from '@gatehouse/shared';
import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { feedback } from '../../../core/feedback.tsx';
import { i18next } from '../../../i18n/index.ts';
import {
  FormDialog,
  ListPage,
  type ColumnDef,
  type FilterDef,
  type FormDef,
  type ListPageConfig,
  type Row,
  type TKey,
} from '../../../components/list-page/index.ts';
import { PoolAreaCell } from '../cells.tsx';
import { dialogState, type Ask, type DialogState } from '../dialog-state.ts';
import { reloadList } from '../live.ts';
import { AssignAreaDialog } from './AssignAreaDialog.tsx';
import { ownAreaOptions } from './filters.ts';
import { poolActions, type AssignSubject, type PoolApi, type PoolRow } from './pool-actions.ts';
import '../access-control.css';

/**
 * What tells one SuperAdmin pool (devices, cards) from the other: its resource, its own filters and
 * columns, the register dialog and the words of its actions. Paging, the area filter, assigning, taking
 * back and deleting are the same for both.
 */
export interface PoolDeclaration<T extends PoolRow> {
  api: PoolApi;
  title: TKey;
  /** The pool's own filters; the area filter follows them. */
  filters: FilterDef[];
  columns: ColumnDef<T>[];
  defaultSort: NonNullable<ListPageConfig<T>['defaultSort']>;
  register: {
    label: TKey;
    testId: string;
    form: FormDef<Row>;
    defaults: Record<string, unknown>;
    /**
     * Registers what the form says (quietly: the dialog shows the server's reason on its fields) and answers
     * how many were registered (devices reply with the rows, cards with a count).
     */
    submit(body: Record<string, unknown>): Promise<number>;
    /** The success message, given the number registered (a literal: its `count` is type-checked). */
    done: 'accessControl.message.devicesRegistered' | 'accessControl.message.cardsRegistered';
  };
  /** The assign dialog's subject for one row and for a batch. */
  assignOne(row: T, t: TFunction): string;
  assignMany(count: number, t: TFunction): string;
  confirmUnassign: TKey;
  confirmBatchUnassign: TKey;
  /** Beyond being assigned (a card held by somebody stays in its area). */
  canUnassign?(row: T): boolean;
}

/** A pool's list declaration and its two dialogs (register, assign), built once per pool at module level. */
export interface PoolList<T extends PoolRow> {
  pool: PoolDeclaration<T>;
  config: ListPageConfig<T>;
  registering: DialogState<true>;
  assigning: DialogState<Ask<AssignSubject>>;
}

/** The area column of a pool: the area's name, or a tag naming the pool while unassigned. */
export function poolAreaColumn<T extends PoolRow & { AreaName: string | null }>(pool: TKey): ColumnDef<T> {
  return {
    key: 'AreaName',
    title: 'accessControl.field.Area',
    width: 150,
    render: (row) => <PoolAreaCell name={row.AreaName} pool={pool} />,
  };
}

function RegisterButton({
  dialog,
  label,
  testId,
}: {
  dialog: DialogState<true>;
  label: TKey;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => dialog.open(true)} data-testid={testId}>
      {t(label)}
    </Button>
  );
}

export function poolList<T extends PoolRow>(pool: PoolDeclaration<T>): PoolList<T> {
  const assigning = dialogState<Ask<AssignSubject>>();
  const registering = dialogState<true>();
  return {
    pool,
    registering,
    assigning,
    config: {
      api: pool.api,
      read: SUPER_ADMIN,
      write: SUPER_ADMIN,
      actions: { batchRemove: true, export: true },
      filters: [
        ...pool.filters,
        { name: 'AreaId', label: 'accessControl.field.Area', kind: 'select', options: ownAreaOptions },
      ],
      columns: pool.columns,
      defaultSort: pool.defaultSort,
      ...poolActions<T>({
        api: pool.api,
        assigning,
        assignOne: (row) => pool.assignOne(row, i18next.t),
        assignMany: (count) => pool.assignMany(count, i18next.t),
        confirmUnassign: pool.confirmUnassign,
        confirmBatchUnassign: pool.confirmBatchUnassign,
        canUnassign: pool.canUnassign,
      }),
      toolbar: (
        <RegisterButton dialog={registering} label={pool.register.label} testId={pool.register.testId} />
      ),
    },
  };
}

/**
 * A registration pool (SuperAdmin): stock enters the pool through the register dialog and is assigned to
 * one of the caller's areas, or returned to the pool. The list shows the pool and the caller's areas.
 */
export function PoolPage<T extends PoolRow>({ list }: { list: PoolList<T> }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { pool } = list;
  const registering = list.registering.useValue() !== null;
  const assignment = list.assigning.useValue();

  async function register(body: Record<string, unknown>) {
    const count = await pool.register.submit(body);
    feedback.success(t(pool.register.done, { count }));
    await reloadList(queryClient, pool.api.name);
  }

  return (
    <>
      <ListPage config={list.config} title={t(pool.title)} />
      <FormDialog
        open={registering}
        title={t(pool.register.label)}
        form={pool.register.form}
        item={null}
        defaults={pool.register.defaults}
        onClose={list.registering.close}
        onSubmit={register}
      />
      <AssignAreaDialog api={pool.api} request={assignment} />
    </>
  );
}
