import { useMemo, useState } from 'react';
import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { cardType } from '@gatehouse/shared';
import { http } from '../../../app/http.ts';
import { feedback } from '../../../app/feedback.tsx';
import { FormDialog, ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { areaOptions } from '../../options.ts';
import { PoolAreaCell } from '../cells.tsx';
import { SUPER } from '../codes.ts';
import { AssignAreaDialog } from '../pool/AssignAreaDialog.tsx';
import { assignedOptions, heldOptions } from '../pool/filters.ts';
import { poolActions } from '../pool/pool-actions.ts';
import { usePoolAssign } from '../pool/use-assign.ts';
import { REGISTER_CARD_DEFAULTS, registerCardsForm } from './register-cards.tsx';
import '../access-control.css';

interface CardRow {
  Id: number;
  AreaId: number | null;
  AreaName: string | null;
  CardNumber: string;
  CardValue: number;
  CardType: number;
  CardUserId: number | null;
  HolderName: string | null;
  Remark: string | null;
  CreatedAt: string;
  [key: string]: unknown;
}

const RESOURCE = 'CardRegistration';

/**
 * Card registration (SuperAdmin): card stock enters the pool by number, list or range and is assigned to one
 * of the caller's areas. Every card shows both forms of its number: printed (stored) and as a controller
 * reports it.
 */
export default function CardRegistrationPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const areas = useAreaStore((s) => s.areas);
  const [registering, setRegistering] = useState(false);
  const { request, ask, unassign } = usePoolAssign(RESOURCE);
  const form = useMemo(() => registerCardsForm(areaOptions(areas)), [areas]);

  const config = useMemo<ListPageConfig<CardRow>>(
    () => ({
      resource: RESOURCE,
      read: SUPER,
      write: SUPER,
      actions: { batchRemove: true, export: true },
      filters: [
        {
          name: 'Keyword',
          label: 'accessControl.field.CardNumber',
          kind: 'text',
          placeholder: 'acUi.card.keyword',
        },
        {
          name: 'CardType',
          label: 'accessControl.field.CardType',
          kind: 'select',
          options: { kind: 'enum', def: cardType },
          width: 150,
        },
        {
          name: 'Assigned',
          label: 'accessControl.field.Assigned',
          kind: 'select',
          options: assignedOptions,
          width: 130,
        },
        { name: 'Held', label: 'accessControl.field.Held', kind: 'select', options: heldOptions, width: 120 },
        { name: 'AreaId', label: 'accessControl.field.Area', kind: 'select', options: areaOptions(areas) },
      ],
      columns: [
        {
          key: 'CardNumber',
          title: 'accessControl.field.CardNumber',
          sort: 'CardNumber',
          width: 130,
          render: (row) => <span className="ac-card-number">{row.CardNumber}</span>,
        },
        {
          key: 'CardValue',
          title: 'accessControl.field.CardValue',
          width: 130,
          render: (row) => <span className="ac-card-number">{row.CardValue}</span>,
        },
        {
          key: 'CardType',
          title: 'accessControl.field.CardType',
          kind: 'enum',
          enumDef: cardType,
          width: 130,
        },
        {
          key: 'AreaName',
          title: 'accessControl.field.Area',
          width: 150,
          render: (row) => <PoolAreaCell name={row.AreaName} pool="acUi.pool.cardPool" />,
        },
        { key: 'HolderName', title: 'accessControl.field.HolderName', width: 110 },
        { key: 'Remark', title: 'accessControl.field.Remark', ellipsis: true },
        {
          key: 'CreatedAt',
          title: 'accessControl.field.CreatedAt',
          kind: 'instant',
          sort: 'CreatedAt',
          width: 170,
        },
      ],
      defaultSort: { field: 'CardNumber', order: 'asc' },
      ...poolActions<CardRow>({
        resource: RESOURCE,
        t,
        ask,
        unassign,
        assignOne: (row) => t('acUi.card.assignOne', { card: row.CardNumber }),
        assignMany: (count) => t('acUi.card.assignMany', { count }),
        confirmUnassign: 'acUi.card.confirmUnassign',
        confirmBatchUnassign: 'acUi.card.confirmBatchUnassign',
        canUnassign: (row) => row.CardUserId === null,
      }),
      toolbar: (
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setRegistering(true)}
          data-testid="register-cards"
        >
          {t('acUi.card.register')}
        </Button>
      ),
    }),
    [areas, ask, unassign, t],
  );

  async function register(body: Record<string, unknown>) {
    const result = await http.post<{ Count: number }>(`/api/${RESOURCE}`, body, { quiet: true });
    feedback.success(t('accessControl.message.cardsRegistered', { count: result.Count }));
    await queryClient.invalidateQueries({ queryKey: ['list', RESOURCE] });
  }

  return (
    <>
      <ListPage config={config} title={t('route.cardRegistration')} />
      <FormDialog
        open={registering}
        title={t('acUi.card.register')}
        form={form}
        item={null}
        defaults={REGISTER_CARD_DEFAULTS}
        onClose={() => setRegistering(false)}
        onSubmit={register}
      />
      <AssignAreaDialog request={request} />
    </>
  );
}
