import { SUPER_ADMIN } from '@gatehouse/shared';
import { useMemo, useState } from 'react';
import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { http } from '../../../core/http.ts';
import { feedback } from '../../../core/feedback.tsx';
import {
  FormDialog,
  ListPage,
  type ColumnDef,
  type FilterDef,
  type FormDef,
  type ListPageConfig,
  type OptionSource,
  type Row,
  type TKey,
} from '../../../components/list-page/index.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { areaOptions } from '../../options.ts';
import { PoolAreaCell } from '../cells.tsx';
import { AssignAreaDialog } from './AssignAreaDialog.tsx';
import { poolActions, type PoolResource, type PoolRow } from './pool-actions.ts';
import { usePoolAssign } from './use-assign.ts';
import '../access-control.css';

/**
 * What tells one SuperAdmin pool (devices, cards) from the other: its resource, its own filters and
 * columns, the register dialog and the words of its actions. Paging, the area filter, assigning, taking
 * back and deleting are the same for both and live in `PoolPage`.
 */
export interface PoolDeclaration<T extends PoolRow> {
  resource: PoolResource;
  title: TKey;
  /** The pool's own filters; the area filter follows them. */
  filters: FilterDef[];
  columns: ColumnDef<T>[];
  defaultSort: NonNullable<ListPageConfig<T>['defaultSort']>;
  register: {
    label: TKey;
    testId: string;
    form(areas: OptionSource): FormDef<Row>;
    defaults: Record<string, unknown>;
    /** The success message, given the number registered (a literal: its `count` is type-checked). */
    done: 'accessControl.message.devicesRegistered' | 'accessControl.message.cardsRegistered';
    /** How many the reply says were registered (devices reply with the rows, cards with a count). */
    count(reply: unknown): number;
  };
  /** The assign dialog's subject for one row and for a batch. */
  assignOne(row: T, t: TFunction): string;
  assignMany(count: number, t: TFunction): string;
  confirmUnassign: TKey;
  confirmBatchUnassign: TKey;
  /** Beyond being assigned (a card held by somebody stays in its area). */
  canUnassign?(row: T): boolean;
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

/**
 * A registration pool (SuperAdmin): stock enters the pool through the register dialog and is assigned to
 * one of the caller's areas, or returned to the pool. The list shows the pool and the caller's areas.
 */
export function PoolPage<T extends PoolRow>({ pool }: { pool: PoolDeclaration<T> }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const areas = useAreaStore((s) => s.areas);
  const [registering, setRegistering] = useState(false);
  const { request, ask, unassign } = usePoolAssign(pool.resource);
  const form = useMemo(() => pool.register.form(areaOptions(areas)), [pool, areas]);

  const config = useMemo<ListPageConfig<T>>(
    () => ({
      resource: pool.resource,
      read: SUPER_ADMIN,
      write: SUPER_ADMIN,
      actions: { batchRemove: true, export: true },
      filters: [
        ...pool.filters,
        { name: 'AreaId', label: 'accessControl.field.Area', kind: 'select', options: areaOptions(areas) },
      ],
      columns: pool.columns,
      defaultSort: pool.defaultSort,
      ...poolActions<T>({
        resource: pool.resource,
        t,
        ask,
        unassign,
        assignOne: (row) => pool.assignOne(row, t),
        assignMany: (count) => pool.assignMany(count, t),
        confirmUnassign: pool.confirmUnassign,
        confirmBatchUnassign: pool.confirmBatchUnassign,
        canUnassign: pool.canUnassign,
      }),
      toolbar: (
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setRegistering(true)}
          data-testid={pool.register.testId}
        >
          {t(pool.register.label)}
        </Button>
      ),
    }),
    [pool, areas, ask, unassign, t],
  );

  async function register(body: Record<string, unknown>) {
    const reply = await http.post<unknown>(`/api/${pool.resource}`, body, { quiet: true });
    feedback.success(t(pool.register.done, { count: pool.register.count(reply) }));
    await queryClient.invalidateQueries({ queryKey: ['list', pool.resource] });
  }

  return (
    <>
      <ListPage config={config} title={t(pool.title)} />
      <FormDialog
        open={registering}
        title={t(pool.register.label)}
        form={form}
        item={null}
        defaults={pool.register.defaults}
        onClose={() => setRegistering(false)}
        onSubmit={register}
      />
      <AssignAreaDialog request={request} />
    </>
  );
}
