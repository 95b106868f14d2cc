import { MAX_DAY_SPAN } from '@gatehouse/shared';
import type { FilterDef, TKey } from '../../components/list-page/index.ts';

/** Days a record list opens on. */
export const RECORD_DEFAULT_DAYS = 7;

/**
 * The time filter of a record list: opens on the last week, never wider than the server's day span
 * (longer ranges are refused; the picker disables the days beyond it).
 */
export function recordRange(label: TKey): FilterDef {
  return {
    name: 'Range',
    label,
    kind: 'dateRange',
    defaultDays: RECORD_DEFAULT_DAYS,
    maxDays: MAX_DAY_SPAN,
  };
}
