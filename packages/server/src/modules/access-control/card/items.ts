import { cardType, displayToCard, type CardItem } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { ExportColumn } from '../../../platform/exports/registry.ts';
import { match } from '../../../platform/filters.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { enumColumn, isSet } from '../common.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the resource helper's query type */

/** A card with its area and holder, as both card lists show it. */
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

/** The condition of each filter of both card lists. */
export const cardWhere = {
  /** Digits typed anywhere in the printed number. */
  Keyword: match.like('Card.CardNumber'),
  CardType: match.equals<number>('Card.CardType'),
  /** Given to a holder or free. */
  Held: isSet('Card.CardUserId'),
  CardUserId: match.equals<number>('Card.CardUserId'),
};

export const cardSorts = {
  CardNumber: 'Card.CardNumber',
  Id: 'Card.Id',
  CreatedAt: 'Card.CreatedAt',
};

export const cardExportColumns: ExportColumn<CardItem>[] = [
  { key: 'CardNumber', labelKey: 'accessControl.field.CardNumber', width: 14 },
  { key: 'CardValue', labelKey: 'accessControl.field.CardValue', kind: 'number', width: 14 },
  enumColumn('CardType', 'CardType', cardType),
  { key: 'AreaName', labelKey: 'accessControl.field.Area', width: 20 },
  { key: 'HolderName', labelKey: 'accessControl.field.HolderName' },
  { key: 'Remark', labelKey: 'accessControl.field.Remark', width: 24 },
  { key: 'CreatedAt', labelKey: 'accessControl.field.CreatedAt', kind: 'instant' },
];
