import {
  enumLabel,
  nation,
  type ChangeRecordItem,
  type HolderFieldChange,
  type RenewalRecordItem,
} from '@gatehouse/shared';
import type { ServiceContext } from '../../../platform/context.ts';
import { rowMapper } from '../../../platform/resource.ts';
import type { Trx } from '../common.ts';

/** A holder's change records (written by the holder services, card-user/change-log.ts). */
export const changeRecordQuery = (db: Trx) =>
  db
    .selectFrom('ChangeRecord')
    .select(['Id', 'CardUserId', 'HolderName', 'ChangeType', 'Detail', 'OperatorName', 'At']);

const mapChange = rowMapper<ChangeRecordItem>({ instants: ['At'] });

export function toChangeItem({ Detail, ...row }: Record<string, unknown>): ChangeRecordItem {
  return {
    ...mapChange(row),
    Changes: Detail ? (JSON.parse(Detail as string) as HolderFieldChange[]) : [],
  };
}

/** Nations are kept as ids and shown in the reader's language. */
export async function withNationLabels(
  ctx: ServiceContext,
  items: ChangeRecordItem[],
): Promise<ChangeRecordItem[]> {
  const label = (v: string | null) => (v === null ? null : enumLabel(ctx.lang, nation, Number(v)));
  return items.map((i) => ({
    ...i,
    Changes: i.Changes.map((c) =>
      c.Field === 'Nation' ? { ...c, Before: label(c.Before), After: label(c.After) } : c,
    ),
  }));
}

export const renewalRecordQuery = (db: Trx) =>
  db
    .selectFrom('RenewalRecord')
    .select(['Id', 'CardUserId', 'HolderName', 'OldValidTo', 'NewValidTo', 'Remark', 'OperatorName', 'At']);

export const toRenewalItem = rowMapper<RenewalRecordItem>({ instants: ['OldValidTo', 'NewValidTo', 'At'] });
