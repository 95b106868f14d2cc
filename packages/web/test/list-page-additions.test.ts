import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { MAX_DAY_SPAN } from '@gatehouse/shared';
import { formBody, initialValues, yuanToCents } from '../src/components/list-page/FormDialog.tsx';
import { beyondMaxDays, filterQuery } from '../src/components/list-page/query.ts';
import type { FilterDef, FormDef, Row } from '../src/components/list-page/types.ts';

describe('date-range limit (FilterDef.maxDays)', () => {
  const start = dayjs('2026-01-01T15:30:00');
  it('allows exactly maxDays calendar days, both ends counted, in either direction', () => {
    expect(beyondMaxDays(dayjs('2026-03-02T23:59:00'), start, MAX_DAY_SPAN)).toBe(false); // day 61
    expect(beyondMaxDays(dayjs('2026-03-03T00:00:00'), start, MAX_DAY_SPAN)).toBe(true); // day 62
    expect(beyondMaxDays(dayjs('2025-11-02T08:00:00'), start, MAX_DAY_SPAN)).toBe(false);
    expect(beyondMaxDays(dayjs('2025-11-01T08:00:00'), start, MAX_DAY_SPAN)).toBe(true);
  });
  it('disables nothing before a first day is picked', () => {
    expect(beyondMaxDays(dayjs('2030-01-01'), null, MAX_DAY_SPAN)).toBe(false);
    expect(beyondMaxDays(dayjs('2030-01-01'), undefined, MAX_DAY_SPAN)).toBe(false);
  });
});

describe('filter values to query parameters (FilterDef.toQuery)', () => {
  const filters: FilterDef[] = [
    {
      name: 'Status',
      label: 'list.search',
      kind: 'select',
      toQuery: (value): Record<string, string> =>
        value === 'Active' ? { ValidAt: 'now' } : { EndBefore: 'now' },
    },
    { name: 'Range', label: 'list.search', kind: 'dateRange' },
    { name: 'Name', label: 'list.search', kind: 'text' },
  ];
  it('lets a filter stand for other parameters and leaves the rest as they were', () => {
    const query = filterQuery(filters, {
      Status: 'Expired',
      Range: [dayjs('2026-01-01T10:00:00'), dayjs('2026-01-07T10:00:00')],
      Name: '  东门 ',
    });
    expect(query).toEqual({
      EndBefore: 'now',
      StartTime: dayjs('2026-01-01T00:00:00').toISOString(),
      EndTime: dayjs('2026-01-07T23:59:59.999').toISOString(),
      Name: '东门',
    });
    expect(filterQuery(filters, { Status: 'Active' })).toEqual({ ValidAt: 'now' });
  });
  it('sends nothing for an empty value', () => {
    expect(filterQuery(filters, { Status: undefined, Name: '' })).toEqual({});
  });
});

describe('money fields (FieldKind cents)', () => {
  const form: FormDef<Row> = {
    fields: [
      { name: 'UnitPriceCents', label: 'list.search', kind: 'cents' },
      { name: 'CapCents', label: 'list.search', kind: 'cents' },
    ],
  };
  it('turns yuan into whole cents without floating-point drift', () => {
    expect(yuanToCents(0.07)).toBe(7);
    expect(yuanToCents(1.1)).toBe(110);
    expect(yuanToCents(19.99)).toBe(1999);
    expect(yuanToCents(0.29)).toBe(29);
    expect(yuanToCents(100000)).toBe(10_000_000);
  });
  it('shows an item in yuan and sends cents, an emptied field as null', () => {
    const item = { Id: 3, UnitPriceCents: 120, CapCents: null };
    expect(initialValues(form, item)).toEqual({ UnitPriceCents: 1.2, CapCents: undefined });
    expect(formBody(form, { UnitPriceCents: 12.5, CapCents: null }, null)).toEqual({
      UnitPriceCents: 1250,
      CapCents: null,
    });
    expect(formBody(form, { UnitPriceCents: 0.3 }, item)).toEqual({ Id: 3, UnitPriceCents: 30 });
  });
});
