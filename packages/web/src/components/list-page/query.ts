import dayjs, { type Dayjs } from 'dayjs';
import { dateSpanDays } from '@gatehouse/shared';
import type { FilterDef } from './types.ts';

export type FilterValues = Record<string, unknown>;
export type QueryValue = string | number | boolean;

export interface SortState {
  field: string;
  order: 'asc' | 'desc';
}

/**
 * Filter form values → query parameters. Empty values are left out; a date range fills StartTime (the
 * first day's 00:00:00.000) and EndTime (the last day's 23:59:59.999), so a 61-day pick is 61 days for
 * the server's span rule.
 */
export function filterQuery(filters: readonly FilterDef[], values: FilterValues): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const f of filters) {
    const value = values[f.name];
    if (value === undefined || value === null || value === '') continue;
    if (f.toQuery) {
      Object.assign(query, f.toQuery(value));
    } else if (f.kind === 'dateRange') {
      const [from, to] = value as [Dayjs | null, Dayjs | null];
      if (from) query.StartTime = from.startOf('day').toISOString();
      if (to) query.EndTime = to.endOf('day').toISOString();
    } else if (f.kind === 'text') {
      const text = String(value).trim();
      if (text) query[f.name] = text;
    } else {
      query[f.name] = value as QueryValue;
    }
  }
  return query;
}

/** The initial filter values: record lists open on their last `defaultDays` days. */
export function initialFilterValues(filters: readonly FilterDef[], now: Dayjs = dayjs()): FilterValues {
  const values: FilterValues = {};
  for (const f of filters) {
    if (f.kind === 'dateRange' && f.defaultDays)
      values[f.name] = [now.subtract(f.defaultDays - 1, 'day'), now];
  }
  return values;
}

/**
 * Whether a day lies beyond a range of at most `maxDays` days from the first day picked, measured as the
 * server measures the submitted range (shared `dateSpanDays`, first day's start to last day's end): the
 * date-range filter disables such days. Without a first day nothing is disabled.
 */
export function beyondMaxDays(day: Dayjs, from: Dayjs | null | undefined, maxDays: number): boolean {
  if (!from) return false;
  const [first, last] = day.isBefore(from) ? [day, from] : [from, day];
  return dateSpanDays(first.startOf('day').valueOf(), last.endOf('day').valueOf()) > maxDays;
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
