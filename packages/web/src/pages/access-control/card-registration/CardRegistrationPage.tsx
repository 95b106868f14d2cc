import { CardRegistrationApi, cardType, type CardItem } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { assignedFilter, heldOptions } from '../pool/filters.ts';
import { PoolPage, poolAreaColumn, poolList } from '../pool/PoolPage.tsx';
import { REGISTER_CARD_DEFAULTS, registerCardsForm } from './register-cards.tsx';
import { enumFilter } from '../options.ts';

type CardRow = CardItem;

const CARD_POOL = poolList<CardRow>({
  api: CardRegistrationApi,
  title: 'route.cardRegistration',
  filters: [
    {
      name: 'Keyword',
      label: 'accessControl.field.CardNumber',
      kind: 'text',
      placeholder: 'acUi.card.keyword',
    },
    enumFilter('CardType', 'accessControl.field.CardType', cardType, 150),
    assignedFilter,
    { name: 'Held', label: 'accessControl.field.Held', kind: 'select', options: heldOptions, width: 120 },
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
    poolAreaColumn('acUi.pool.cardPool'),
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
  register: {
    label: 'acUi.card.register',
    testId: 'register-cards',
    form: registerCardsForm,
    defaults: REGISTER_CARD_DEFAULTS,
    submit: async (body) =>
      (await call(CardRegistrationApi.register, { body: body as never }, { quiet: true })).Count,
    done: 'accessControl.message.cardsRegistered',
  },
  assignOne: (row, t) => t('acUi.card.assignOne', { card: row.CardNumber }),
  assignMany: (count, t) => t('acUi.card.assignMany', { count }),
  confirmUnassign: 'acUi.card.confirmUnassign',
  confirmBatchUnassign: 'acUi.card.confirmBatchUnassign',
  canUnassign: (row) => row.CardUserId === null,
});

/**
 * Card registration (SuperAdmin): card stock enters the pool by number, list or range and is assigned to one
 * of the caller's areas. Every card shows both forms of its number: printed (stored) and as a controller
 * reports it.
 */
export default function CardRegistrationPage() {
  return <PoolPage list={CARD_POOL} />;
}
