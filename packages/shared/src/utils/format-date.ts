import { DEFAULT_DATE_FORMAT } from '../constants.ts';
import { toDayjs, type DateInput } from './date-input.ts';

/**
 * Formats an instant with a dayjs pattern in the local time zone of the runtime (the browser's, for
 * screens). Missing or invalid input gives '' so a table cell stays empty instead of showing "Invalid Date".
 */
export function formatDate(
  date: DateInput | null | undefined,
  pattern: string = DEFAULT_DATE_FORMAT,
): string {
  return toDayjs(date)?.format(pattern) ?? '';
}
