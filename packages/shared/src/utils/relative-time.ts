import { DEFAULT_LANG, type Lang } from '../i18n/languages.ts';
import { translate } from '../i18n/translate.ts';
import { toDayjs, type DateInput } from './date-input.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** i18next's suffix for the count; enough for zh, en, es and ja (one/other). */
function plural(count: number): 'one' | 'other' {
  return count === 1 ? 'one' : 'other';
}

/**
 * "How long ago", as the spec describes it: under 30 s 'just now'; under 1 hour N minutes ago (at least
 * 1); under 1 day N hours ago; under 2 days '1 day ago'; otherwise the date as YYYY-MM-DD. N is rounded
 * down, so 59 min 59 s is 59 minutes ago. A date up to 30 s in the future also reads 'just now' (clocks of
 * server and browser drift); further in the future it is shown as its date, never as a negative age.
 * Invalid input gives ''.
 */
export function relativeTime(
  date: DateInput,
  now: DateInput = Date.now(),
  lang: Lang = DEFAULT_LANG,
): string {
  const then = toDayjs(date);
  const current = toDayjs(now);
  if (!then || !current) return '';
  const elapsed = current.valueOf() - then.valueOf();
  if (Math.abs(elapsed) < 30 * SECOND) return translate(lang, 'time.justNow');
  if (elapsed > 0 && elapsed < HOUR) {
    const count = Math.max(1, Math.floor(elapsed / MINUTE));
    return translate(lang, `time.minutesAgo_${plural(count)}`, { count });
  }
  if (elapsed > 0 && elapsed < DAY) {
    const count = Math.floor(elapsed / HOUR);
    return translate(lang, `time.hoursAgo_${plural(count)}`, { count });
  }
  if (elapsed > 0 && elapsed < 2 * DAY) return translate(lang, 'time.oneDayAgo');
  return then.format('YYYY-MM-DD');
}
