import { MAX_DAY_SPAN } from '@gatehouse/shared';
import type { FilterDef, TKey } from '../../components/list-page/index.ts';

/** Days a record list opens on: the last week. */
export const RECORD_DEFAULT_DAYS = 7;

/** Renewals are rare (a few a week): their list opens on the last 30 days. */
export const RENEWAL_DEFAULT_DAYS = 30;

/**
 * The time filter of a record list. `defaultDays` opens it on the recent days (swipe, change and renewal
 * records); without it the list opens unfiltered (fault reports, whose open cases may be old). The picker
 * never spans more than the server's MAX_DAY_SPAN days.
 */
export function recordRange(label: TKey, defaultDays: number | null = RECORD_DEFAULT_DAYS): FilterDef {
  return {
    name: 'Range',
    label,
    kind: 'dateRange',
    ...(defaultDays ? { defaultDays } : {}),
    maxDays: MAX_DAY_SPAN,
  };
}
