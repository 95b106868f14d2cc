import type { cardItem } from '@gatehouse/shared';
import { cardType, displayToCard, enumLabel } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { ExportColumn } from '../../../platform/exports/registry.ts';
import { filter } from '../../../platform/filters.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { id, queryBool } from '../../../platform/schemas.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the resource helper's query type */

export type CardItem = z.infer<typeof cardItem>;

export function cardQuery(db: Kysely<any>) {
  return db
    .selectFrom('Card')
    .leftJoin('AreaInfo', 'AreaInfo.Id', 'Card.AreaId')
    .leftJoin('CardUser', 'CardUser.Id', 'Card.CardUserId')
    .select([
      'Card.Id',
      'Card.AreaId',
      'AreaInfo.Name as AreaName',
      'Card.CardNumber',
      'Card.CardType',
      'Card.CardUserId',
      'CardUser.Name as HolderName',
      'Card.Remark',
      'Card.CreatedAt',
      'Card.UpdatedAt',
    ]);
}

const mapCard = rowMapper<CardItem>({});

export function toCardItem(row: Record<string, any>): CardItem {
  const item = mapCard(row);
  return { ...item, CardValue: displayToCard(item.CardNumber) };
}

/** Card number search: digits typed anywhere in the printed number. */
export const cardFilters = {
  Keyword: filter.like('Card.CardNumber'),
  CardType: filter.oneOf('Card.CardType', cardType),
  /** Given to a holder or free. */
  Held: {
    schema: queryBool,
    where: (eb: any, held: boolean) => eb('Card.CardUserId', held ? 'is not' : 'is', null),
  },
  CardUserId: { schema: id, where: (eb: any, v: number) => eb('Card.CardUserId', '=', v) },
};

export const cardSorts = {
  CardNumber: 'Card.CardNumber',
  Id: 'Card.Id',
  CreatedAt: 'Card.CreatedAt',
};

export const cardExportColumns: ExportColumn<CardItem>[] = [
  { key: 'CardNumber', labelKey: 'accessControl.field.CardNumber', width: 14 },
  { key: 'CardValue', labelKey: 'accessControl.field.CardValue', kind: 'number', width: 14 },
  {
    key: 'CardType',
    labelKey: 'accessControl.field.CardType',
    label: (v, lang) => enumLabel(lang, cardType, v),
  },
  { key: 'AreaName', labelKey: 'accessControl.field.Area', width: 20 },
  { key: 'HolderName', labelKey: 'accessControl.field.HolderName' },
  { key: 'Remark', labelKey: 'accessControl.field.Remark', width: 24 },
  { key: 'CreatedAt', labelKey: 'accessControl.field.CreatedAt', kind: 'instant' },
];
