import { describe, expect, it } from 'vitest';
import {
  PROFILE_SLOTS,
  antiPassbackModes,
  budgetDetail,
  compileProfile,
  dayNumber,
  dayText,
  interlockModes,
  isLocalDate,
  isLocalMinute,
  isoWeekday,
  linkMakesLoop,
  parsePasscodes,
  planSlots,
  profileClosure,
  slotsNeeded,
  weekdayMask,
  weekdaysOf,
  AccessControlChannelApi,
  type HolidayDef,
  type ProfileDef,
} from '../src/index.ts';

const weekdays = [1, 2, 3, 4, 5];
const profile = (over: Partial<ProfileDef> = {}): ProfileDef => ({
  Id: 1,
  Name: 'Office',
  StartDate: '2026-05-01',
  EndDate: '2026-05-31',
  Weekdays: weekdays,
  Segments: [{ Start: '08:00', End: '18:00' }],
  LinkedProfileId: null,
  NotOnHolidays: true,
  ...over,
});
const holiday = (StartDate: string, EndDate = StartDate): HolidayDef => ({ Name: 'h', StartDate, EndDate });
const map = (...list: ProfileDef[]) => new Map(list.map((p) => [p.Id, p]));

describe('local dates and weekdays', () => {
  it('reads calendar dates and minutes strictly', () => {
    expect(isLocalDate('2026-02-28')).toBe(true);
    expect(isLocalDate('2026-02-30')).toBe(false);
    expect(isLocalDate('2026-2-3')).toBe(false);
    expect(isLocalMinute('23:59')).toBe(true);
    expect(isLocalMinute('24:00')).toBe(false);
    expect(isLocalMinute('8:00')).toBe(false);
  });

  it('numbers weekdays 1 Monday .. 7 Sunday and round-trips day numbers and masks', () => {
    expect(isoWeekday(dayNumber('2026-05-04'))).toBe(1); // a Monday
    expect(isoWeekday(dayNumber('2026-05-10'))).toBe(7); // a Sunday
    expect(dayText(dayNumber('2099-12-31'))).toBe('2099-12-31');
    expect(weekdayMask([1, 7])).toBe(0b1000001);
    expect(weekdaysOf(weekdayMask([2, 4, 6]))).toEqual([2, 4, 6]);
  });
});

describe('controller models', () => {
  it('offers the interlock and anti-passback modes the door count allows', () => {
    expect(interlockModes(1)).toEqual([0]);
    expect(interlockModes(2)).toEqual([0, 1]);
    expect(interlockModes(4)).toEqual([0, 1, 2, 3, 4, 8]);
    expect(antiPassbackModes(1)).toEqual([0]);
    expect(antiPassbackModes(2)).toEqual([0, 1]);
    expect(antiPassbackModes(4)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('compiling a profile around holidays', () => {
  it('is one part when it applies on holidays', () => {
    expect(compileProfile(profile({ NotOnHolidays: false }), [holiday('2026-05-05')])).toEqual([
      { from: '2026-05-01', to: '2026-05-31', weekdays },
    ]);
  });

  it('splits around a holiday on one of its weekdays', () => {
    // 2026-05-05 is a Tuesday.
    expect(compileProfile(profile(), [holiday('2026-05-05')])).toEqual([
      { from: '2026-05-01', to: '2026-05-04', weekdays },
      { from: '2026-05-06', to: '2026-05-31', weekdays },
    ]);
  });

  it('ignores holidays on days it does not cover and outside its dates', () => {
    // 2026-05-09/10 is a weekend; 2026-06-01 is after the end.
    expect(compileProfile(profile(), [holiday('2026-05-09', '2026-05-10'), holiday('2026-06-01')])).toEqual([
      { from: '2026-05-01', to: '2026-05-31', weekdays },
    ]);
  });

  it('drops a stretch between holidays that holds none of its weekdays', () => {
    // Friday 8th and Monday 11th off: the weekend between them is no part of an office profile.
    const parts = compileProfile(profile(), [holiday('2026-05-08'), holiday('2026-05-11')]);
    expect(parts).toEqual([
      { from: '2026-05-01', to: '2026-05-07', weekdays },
      { from: '2026-05-12', to: '2026-05-31', weekdays },
    ]);
  });

  it('merges overlapping holidays and a range of them', () => {
    const parts = compileProfile(profile(), [holiday('2026-05-18', '2026-05-20'), holiday('2026-05-19')]);
    expect(parts).toEqual([
      { from: '2026-05-01', to: '2026-05-17', weekdays },
      { from: '2026-05-21', to: '2026-05-31', weekdays },
    ]);
  });

  it('leaves one part that never grants when holidays cover every day', () => {
    expect(compileProfile(profile(), [holiday('2026-04-01', '2026-06-30')])).toEqual([
      { from: '2026-05-01', to: '2026-05-31', weekdays: [] },
    ]);
  });

  it('clamps dates to what a controller stores', () => {
    const [part] = compileProfile(profile({ StartDate: '1999-01-01', EndDate: '2150-01-01' }), []);
    expect(part).toMatchObject({ from: '2000-01-01', to: '2099-12-31' });
  });
});

describe('chains and budget', () => {
  const a = profile({ Id: 1, Name: 'A', LinkedProfileId: 2 });
  const b = profile({ Id: 2, Name: 'B', NotOnHolidays: false, LinkedProfileId: null });
  const c = profile({ Id: 3, Name: 'C', LinkedProfileId: 2 });

  it('follows links once and refuses a loop', () => {
    expect(profileClosure([1, 3], map(a, b, c))).toEqual([1, 2, 3]);
    expect(linkMakesLoop(2, 1, map(a, b, c))).toBe(true);
    expect(linkMakesLoop(3, 2, map(a, b, c))).toBe(false);
    expect(linkMakesLoop(1, 1, map(a))).toBe(true);
  });

  it('links each part to the next and the last to the linked profile', () => {
    const result = planSlots([1], map(a, b), [holiday('2026-05-05')]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { slots, head } = result.plan;
    expect(slots.map((s) => [s.slot, s.profileId, s.part, s.linked])).toEqual([
      [2, 1, 0, 3],
      [3, 1, 1, 4],
      [4, 2, 0, 0],
    ]);
    expect(head.get(1)).toBe(2);
    expect(head.get(2)).toBe(4);
  });

  it('keeps assigned slots stable when parts come and go', () => {
    const first = planSlots([1, 3], map(a, b, c), []);
    if (!first.ok) throw new Error('fits');
    // A holiday splits A; C and B keep their slots, A's head keeps its slot, the new part takes a free one.
    const second = planSlots([1, 3], map(a, b, c), [holiday('2026-05-05')], first.plan.assignment);
    if (!second.ok) throw new Error('fits');
    for (const id of [1, 2, 3]) expect(second.plan.head.get(id)).toBe(first.plan.head.get(id));
    // A and C (both not on holidays) split in two, B does not.
    expect(second.plan.slots).toHaveLength(5);
    expect(new Set(second.plan.slots.map((s) => s.slot)).size).toBe(5);
  });

  it('refuses a plan over 253 slots and says which profiles take them', () => {
    // Three years of office days with Monday, Wednesday and Friday off: Tuesday and Thursday are a part
    // each, about 313 in all.
    const long = profile({ Id: 9, Name: 'Long', StartDate: '2026-01-01', EndDate: '2028-12-31' });
    const start = dayNumber('2026-01-01');
    const holidays = Array.from({ length: 3 * 366 }, (_, i) => start + i)
      .filter((d) => [1, 3, 5].includes(isoWeekday(d)))
      .map((d) => holiday(dayText(d)));
    const count = slotsNeeded([9], map(long), holidays);
    expect(count.total).toBeGreaterThan(PROFILE_SLOTS);
    const result = planSlots([9, 2], map(long, b), holidays);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.count.total).toBe(count.total + 1);
    expect(budgetDetail(result.count)).toMatch(/^Long ×\d+, B ×1$/);
  });

  it('counts exactly 253 as fitting and 254 as not', () => {
    const many = Array.from({ length: 254 }, (_, i) =>
      profile({ Id: 100 + i, Name: `P${i}`, NotOnHolidays: false }),
    );
    const all = map(...many);
    expect(
      planSlots(
        many.slice(0, PROFILE_SLOTS).map((p) => p.Id),
        all,
        [],
      ).ok,
    ).toBe(true);
    const over = planSlots(
      many.map((p) => p.Id),
      all,
      [],
    );
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.count.total).toBe(254);
  });
});

describe('door passcodes, as typed and as sent', () => {
  it('keeps, clears or takes up to four codes of 1 to 6 digits; anything else is named for what it is', () => {
    expect(parsePasscodes('')).toEqual({ ok: true, codes: undefined });
    expect(parsePasscodes(' - ')).toEqual({ ok: true, codes: [] });
    expect(parsePasscodes('123456, 7，42 9')).toEqual({ ok: true, codes: [123456, 7, 42, 9] });
    // "abc" is not empty: it is not a passcode.
    for (const text of ['abc', '12a', '1234567', '0', '000', '1.5', '0x1f', '-5'])
      expect(parsePasscodes(text), text).toEqual({ ok: false, key: 'validation.passcode' });
    expect(parsePasscodes('1,2,3,4,5')).toEqual({ ok: false, key: 'validation.passcodeCount' });
    expect(parsePasscodes('1234, 1234')).toEqual({ ok: false, key: 'validation.passcodeRepeated' });
  });

  it("the API's schema says the same, in catalogue keys, at the list or the code's place", () => {
    const body = (Passcodes: unknown) =>
      AccessControlChannelApi.update.body.safeParse({
        Id: 1,
        Name: 'door',
        DoorNumber: 1,
        Direction: 1,
        Passcodes,
      });
    const issues = (Passcodes: unknown) =>
      (body(Passcodes).error?.issues ?? []).map((i) => [i.path.join('.'), i.message]);
    expect(issues(['abc'])).toEqual([['Passcodes.0', 'validation.passcode']]);
    expect(issues([null])).toEqual([['Passcodes.0', 'validation.passcode']]);
    expect(issues([12, 1_000_000])).toEqual([['Passcodes.1', 'validation.passcode']]);
    expect(issues([0])).toEqual([['Passcodes.0', 'validation.passcode']]);
    expect(issues([1, 2, 3, 4, 5])).toEqual([['Passcodes', 'validation.passcodeCount']]);
    expect(issues([7, 7])).toEqual([['Passcodes', 'validation.passcodeRepeated']]);
    expect(issues([1, 999_999])).toEqual([]);
  });
});
