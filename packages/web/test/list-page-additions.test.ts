import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { MAX_DAY_SPAN } from '@gatehouse/shared';
import { formBody, initialValues, yuanToCents } from '../src/components/list-page/FormDialog.tsx';
import { filterQuery, rangeTooLong } from '../src/components/list-page/query.ts';
import type { FilterDef, FormDef, Row } from '../src/components/list-page/types.ts';

// A browser far from the site: what the screens show and send must not follow it.
const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe('typed date ranges over maxDays (the field says so instead of reverting)', () => {
  it('measures the range at the site as the server does', () => {
    const from = dayjs('2026-01-01T00:00:00');
    expect(rangeTooLong([from, dayjs('2026-03-02T00:00:00')], MAX_DAY_SPAN)).toBe(false); // 61 days
    expect(rangeTooLong([from, dayjs('2026-03-03T00:00:00')], MAX_DAY_SPAN)).toBe(true); // 62 days
    expect(rangeTooLong([dayjs('2026-03-03T00:00:00'), from], MAX_DAY_SPAN)).toBe(true);
    expect(rangeTooLong([from, dayjs('2026-03-03')], MAX_DAY_SPAN, 'UTC')).toBe(true);
  });
  it('says nothing about a missing or half range', () => {
    expect(rangeTooLong(null, MAX_DAY_SPAN)).toBe(false);
    expect(rangeTooLong([dayjs('2026-01-01'), null], MAX_DAY_SPAN)).toBe(false);
  });
});

describe('date-time fields at the site (one clock per site)', () => {
  const form: FormDef<Row> = { fields: [{ name: 'ValidTo', label: 'list.search', kind: 'datetime' }] };
  it('shows an instant as the site wall time and saves the wall time typed as that instant', () => {
    const values = initialValues(form, { Id: 1, ValidTo: '2030-06-30T15:59:59.000Z' } as Row);
    expect((values.ValidTo as dayjs.Dayjs).format('YYYY-MM-DD HH:mm:ss')).toBe('2030-06-30 23:59:59');
    expect(formBody(form, { ValidTo: dayjs('2030-06-30 23:59:59') }, null)).toMatchObject({
      ValidTo: '2030-06-30T15:59:59.000Z',
    });
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
      // Whole days at the site (no area zone: Asia/Shanghai), whatever zone the test runs in.
      StartTime: '2025-12-31T16:00:00.000Z',
      EndTime: '2026-01-07T15:59:59.999Z',
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
