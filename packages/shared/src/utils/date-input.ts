import dayjs, { type Dayjs } from 'dayjs';

/** What date helpers accept: a Date, epoch milliseconds, or an ISO 8601 string (the API's instants). */
export type DateInput = Date | number | string;

/** The instant as dayjs, or null when it is missing or not a real date. */
export function toDayjs(input: DateInput | null | undefined): Dayjs | null {
  if (input === null || input === undefined || input === '') return null;
  if (typeof input === 'number' && !Number.isFinite(input)) return null;
  if (!(input instanceof Date) && typeof input !== 'number' && typeof input !== 'string') return null;
  const d = dayjs(input);
  return d.isValid() ? d : null;
}
