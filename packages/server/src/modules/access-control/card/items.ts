import { cardType, displayToCard, type CardItem } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { isSet } from '../common.ts';

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

export const cardExportColumns = exportColumns<CardItem>('accessControl.field', {
  CardNumber: 14,
  CardValue: { kind: 'number', width: 14 },
  CardType: { enum: cardType },
  AreaName: { header: 'Area', width: 20 },
  HolderName: 'text',
  Remark: 24,
  CreatedAt: 'instant',
});
