import { describe, expect, it } from 'vitest';
import {
  chainGrantsAt,
  controllerDate,
  instantOfLocalMinute,
  localMinuteOf,
  localMinuteText,
  parseLocalMinute,
  profileGrantsAt,
  type ChainSlot,
  type HolidayDef,
  type ProfileDef,
} from '../src/index.ts';

/** 2027-05-03 is a Monday (a holiday below), 2027-05-04 a Tuesday, 2027-05-08 a Saturday, 2027-05-09 a Sunday. */
const at = (date: string, hhmm: string) => parseLocalMinute(`${date} ${hhmm}`)!;

const office: ProfileDef = {
  Id: 1,
  Name: 'Office',
  StartDate: '2027-01-01',
  EndDate: '2027-12-31',
  Weekdays: [1, 2, 3, 4, 5],
  Segments: [{ Start: '08:00', End: '18:00' }],
  LinkedProfileId: 2,
  NotOnHolidays: true,
};
const weekend: ProfileDef = {
  Id: 2,
  Name: 'Weekend',
  StartDate: '2027-01-01',
  EndDate: '2027-12-31',
  Weekdays: [6, 7],
  Segments: [{ Start: '10:00', End: '16:00' }],
  LinkedProfileId: null,
  NotOnHolidays: false,
};
const profiles = new Map([
  [1, office],
  [2, weekend],
]);
const holidays: HolidayDef[] = [{ Name: 'Labour Day', StartDate: '2027-05-03', EndDate: '2027-05-03' }];

describe('a time profile at one minute, judged as the controller judges its compiled chain', () => {
  it.each([
    ['2027-05-04', '10:00', true, 1, null],
    ['2027-05-04', '08:00', true, 1, null], // both ends of a segment are included
    ['2027-05-04', '18:00', true, 1, null],
    ['2027-05-04', '18:01', false, null, null],
    ['2027-05-04', '07:59', false, null, null],
    ['2027-05-08', '11:00', true, 2, null], // Saturday: by the linked profile
    ['2027-05-09', '20:00', false, null, null], // Sunday evening: neither
    ['2027-05-03', '10:00', false, null, 'Labour Day'], // a Monday holiday: the holiday is named
    ['2028-01-04', '10:00', false, null, null], // after the profile's dates
  ])('%s %s: granted %s by %s, holiday %s', (date, time, granted, by, holiday) => {
    const v = profileGrantsAt(1, profiles, holidays, at(date, time));
    expect(v).toEqual({ granted, grantedBy: by, holiday, missing: false });
  });

  it('a profile the area no longer has grants nothing (the controller gets door value 0 for it)', () => {
    expect(profileGrantsAt(9, profiles, holidays, at('2027-05-04', '10:00'))).toMatchObject({
      granted: false,
      missing: true,
    });
  });
});

describe('a chain of controller profiles as a controller walks it', () => {
  const slot = (over: Partial<ChainSlot>): ChainSlot => ({
    slot: 2,
    from: '2027-01-01',
    to: '2027-12-31',
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    segments: [{ Start: '08:00', End: '09:00' }],
    linked: 0,
    ...over,
  });

  it('grants on the first profile that covers the minute, following links, and stops a loop', () => {
    const slots = new Map([
      [2, slot({ linked: 3 })],
      [3, slot({ slot: 3, segments: [{ Start: '12:00', End: '13:00' }], linked: 2 })],
    ]);
    expect(chainGrantsAt(2, slots, at('2027-05-04', '12:30'))).toMatchObject({ granted: true, slot: 3 });
    expect(chainGrantsAt(2, slots, at('2027-05-04', '20:00'))).toEqual({
      granted: false,
      slot: null,
      missing: null,
      visited: [2, 3],
    });
  });

  it('lets the card in when a profile of the chain is missing (a controller defaults to open)', () => {
    const slots = new Map([[2, slot({ linked: 7 })]]);
    expect(chainGrantsAt(2, slots, at('2027-05-04', '20:00'))).toMatchObject({ granted: true, missing: 7 });
  });

  it('reads a profile without dates, or with the unused segment 00:00–00:00, as granting nothing', () => {
    const none = new Map([[2, slot({ from: null, segments: [{ Start: '00:00', End: '00:00' }] })]]);
    expect(chainGrantsAt(2, none, at('2027-05-04', '00:00')).granted).toBe(false);
    const unused = new Map([[2, slot({ segments: [{ Start: '00:00', End: '00:00' }] })]]);
    expect(chainGrantsAt(2, unused, at('2027-05-04', '00:00')).granted).toBe(false);
  });
});

describe('minutes and dates of an area', () => {
  it('parses a minute of the wall clock, with a space or a T, and refuses anything else', () => {
    expect(parseLocalMinute('2027-05-04 10:07')).toEqual({ date: '2027-05-04', minute: 607 });
    expect(parseLocalMinute('2027-05-04T10:07')).toEqual({ date: '2027-05-04', minute: 607 });
    for (const bad of ['2027-02-30 10:00', '2027-05-04 24:00', '2027-05-04 10:07:30', '2027-05-04', 'now'])
      expect(parseLocalMinute(bad), bad).toBeNull();
  });

  it('goes from a minute of the area to an instant and back', () => {
    const minute = at('2027-05-04', '10:07');
    const instant = instantOfLocalMinute(minute, 'Asia/Shanghai');
    expect(new Date(instant).toISOString()).toBe('2027-05-04T02:07:00.000Z');
    expect(localMinuteText(localMinuteOf(instant, 'Asia/Shanghai'))).toBe('2027-05-04 10:07');
  });

  it('writes a validity bound as the local date the controller holds, within its 2000–2099 calendar', () => {
    expect(controllerDate(Date.UTC(2027, 4, 3, 17), 'Asia/Shanghai')).toBe('2027-05-04');
    expect(controllerDate(Date.UTC(1990, 0, 1), 'Asia/Shanghai')).toBe('2000-01-02');
    expect(controllerDate(Date.UTC(2200, 0, 1), 'Asia/Shanghai')).toBe('2099-12-30');
  });
});
