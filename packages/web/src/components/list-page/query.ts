import type { Dayjs } from 'dayjs';
import { dateSpanDays, fromWallClock, wallClockToIso } from '@gatehouse/shared';
import { siteNow, siteZone } from '../../core/site-time.ts';
import type { FilterDef } from './types.ts';

export type FilterValues = Record<string, unknown>;
export type QueryValue = string | number | boolean;

export interface SortState {
  field: string;
  order: 'asc' | 'desc';
}

/**
 * Filter form values → query parameters. Empty values are left out; a date range fills StartTime (the
 * first day's 00:00:00.000) and EndTime (the last day's 23:59:59.999) at the site (`zone`: the picker
 * shows the site's days, whatever the browser's zone), so a 61-day pick is 61 days for the server's rule.
 */
export function filterQuery(
  filters: readonly FilterDef[],
  values: FilterValues,
  zone: string = siteZone(),
): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const f of filters) {
    const value = values[f.name];
    if (value === undefined || value === null || value === '') continue;
    if (f.toQuery) {
      Object.assign(query, f.toQuery(value));
    } else if (f.kind === 'dateRange') {
      const [from, to] = value as [Dayjs | null, Dayjs | null];
      if (from) query.StartTime = wallClockToIso(from.startOf('day'), zone);
      if (to) query.EndTime = wallClockToIso(to.endOf('day'), zone);
    } else if (f.kind === 'text') {
      const text = String(value).trim();
      if (text) query[f.name] = text;
    } else {
      query[f.name] = value as QueryValue;
    }
  }
  return query;
}

/** The initial filter values: record lists open on their last `defaultDays` days (the site's days). */
export function initialFilterValues(filters: readonly FilterDef[], now: Dayjs = siteNow()): FilterValues {
  const values: FilterValues = {};
  for (const f of filters) {
    if (f.kind === 'dateRange' && f.defaultDays)
      values[f.name] = [now.subtract(f.defaultDays - 1, 'day'), now];
  }
  return values;
}

/**
 * Whether a picked or typed range is longer than `maxDays` days, measured as the server measures it (its
 * first day's start to its last day's end at the site). Typed ranges are not refused by the picker, so
 * the field can say why instead of silently reverting.
 */
export function rangeTooLong(
  range: readonly [Dayjs | null, Dayjs | null] | null | undefined,
  maxDays: number,
  zone: string = siteZone(),
): boolean {
  const [from, to] = range ?? [null, null];
  if (!from || !to) return false;
  const [first, last] = to.isBefore(from) ? [to, from] : [from, to];
  return (
    dateSpanDays(fromWallClock(first.startOf('day'), zone), fromWallClock(last.endOf('day'), zone)) > maxDays
  );
}

/** The full list query: fixed parameters, filters, sort and page. */
export function listQuery(
  fixed: Record<string, QueryValue> | undefined,
  filters: Record<string, QueryValue>,
  sort: SortState | null,
  page: { index: number; size: number } | null,
): Record<string, QueryValue> {
  return {
    ...fixed,
    ...filters,
    ...(sort ? { SortField: sort.field, SortOrder: sort.order } : {}),
    ...(page ? { PageIndex: page.index, PageSize: page.size } : {}),
  };
}
