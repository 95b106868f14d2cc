import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  VISITOR_PASS_MAX_DAYS,
  passProfileParts,
  passWindowKey,
  passWindowProblem,
  type LocalMinute,
} from '../src/visitor-pass-rules.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 29, 8, 30);

describe("a visitor pass's window", () => {
  it.each([
    ['a pass of the next hour', NOW, NOW + 60 * MINUTE, null],
    ['a start within the last minute', NOW - MINUTE, NOW + MINUTE, null],
    ['the longest pass', NOW, NOW + VISITOR_PASS_MAX_DAYS * DAY, null],
    ['seconds in the start', NOW + 30_000, NOW + 60 * MINUTE, 'ValidFrom passWholeMinute'],
    ['milliseconds in the end', NOW, NOW + 60 * MINUTE + 1, 'ValidTo passWholeMinute'],
    ['a start in the past', NOW - 2 * MINUTE, NOW + 60 * MINUTE, 'ValidFrom passInPast'],
    ['an end at its start', NOW, NOW, 'ValidTo endBeforeStart'],
    ['an end before its start', NOW + 60 * MINUTE, NOW, 'ValidTo endBeforeStart'],
    ['a day too long', NOW, NOW + (VISITOR_PASS_MAX_DAYS + 1) * DAY, 'ValidTo passTooLong'],
  ])('%s', (_, from, to, expected) => {
    const problem = passWindowProblem(from, to, NOW);
    expect(problem && `${problem.field} ${problem.key.split('.').at(-1)}`).toBe(expected);
  });
});

const at = (date: string, hhmm: string): LocalMinute => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return { date, minute: h * 60 + m };
};

describe('the time profiles that carry its hours on a controller', () => {
  it.each([
    ['whole days need none', at('2027-05-03', '00:00'), at('2027-05-04', '23:59'), null],
    [
      'one day',
      at('2027-05-03', '09:00'),
      at('2027-05-03', '16:59'),
      [['2027-05-03', '2027-05-03', '09:00', '16:59']],
    ],
    [
      'across midnight',
      at('2027-05-03', '22:00'),
      at('2027-05-04', '05:59'),
      [
        ['2027-05-03', '2027-05-03', '22:00', '23:59'],
        ['2027-05-04', '2027-05-04', '00:00', '05:59'],
      ],
    ],
    [
      'several days: first, whole days between, last',
      at('2027-05-03', '09:00'),
      at('2027-05-06', '16:59'),
      [
        ['2027-05-03', '2027-05-03', '09:00', '23:59'],
        ['2027-05-04', '2027-05-05', '00:00', '23:59'],
        ['2027-05-06', '2027-05-06', '00:00', '16:59'],
      ],
    ],
    [
      'from midnight to the afternoon of a later day',
      at('2027-05-03', '00:00'),
      at('2027-05-04', '11:59'),
      [
        ['2027-05-03', '2027-05-03', '00:00', '23:59'],
        ['2027-05-04', '2027-05-04', '00:00', '11:59'],
      ],
    ],
    [
      'a last day of the single minute 00:00 is left out (a controller reads 00:00-00:00 as none)',
      at('2027-05-03', '09:00'),
      at('2027-05-04', '00:00'),
      [['2027-05-03', '2027-05-03', '09:00', '23:59']],
    ],
    [
      'across a year',
      at('2027-12-31', '18:00'),
      at('2028-01-01', '02:59'),
      [
        ['2027-12-31', '2027-12-31', '18:00', '23:59'],
        ['2028-01-01', '2028-01-01', '00:00', '02:59'],
      ],
    ],
  ])('%s', (_, first, last, expected) => {
    const parts = passProfileParts(first, last);
    expect(parts && parts.map((p) => [p.StartDate, p.EndDate, p.Start, p.End])).toEqual(expected);
  });

  it('covers exactly the minutes of the window, each once (property)', () => {
    const base = Date.UTC(2027, 0, 1);
    const local = (ms: number): LocalMinute => {
      const d = new Date(ms);
      return { date: d.toISOString().slice(0, 10), minute: d.getUTCHours() * 60 + d.getUTCMinutes() };
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 * 24 * 60 }),
        fc.integer({ min: 1, max: 5 * 24 * 60 }),
        (start, length) => {
          const from = base + start * MINUTE;
          const to = from + length * MINUTE;
          const first = local(from);
          const last = local(to - MINUTE);
          const parts = passProfileParts(first, last);
          const minute = (ms: number) => {
            const m = local(ms);
            if (parts === null) return m.date >= first.date && m.date <= last.date;
            const hhmm = `${String(Math.floor(m.minute / 60)).padStart(2, '0')}:${String(m.minute % 60).padStart(2, '0')}`;
            return parts.filter(
              (p) => p.StartDate <= m.date && m.date <= p.EndDate && p.Start <= hhmm && hhmm <= p.End,
            ).length;
          };
          // Inside: every minute granted once (or by the dates alone); just outside: none, unless a lone 00:00 minute.
          for (const probe of [from, to - MINUTE, from + Math.floor(length / 2) * MINUTE])
            if (!(
              parts !== null &&
              local(probe).minute === 0 &&
              local(probe).date === last.date &&
              last.minute === 0
            ))
              expect(Number(minute(probe))).toBe(1);
          if (parts !== null) {
            expect(Number(minute(from - MINUTE))).toBe(0);
            expect(Number(minute(to))).toBe(0);
          }
        },
      ),
      { seed: 31, numRuns: 300 },
    );
  });

  it('names a window by its first and last minutes', () => {
    expect(passWindowKey(at('2027-05-03', '09:00'), at('2027-05-03', '16:59'))).toBe(
      '2027-05-03 09:00/2027-05-03 16:59',
    );
  });
});
