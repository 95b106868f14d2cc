import type { Dayjs } from 'dayjs';

/** An optional validity range of a grant: both ends as ISO instants, or none (follow the holder's). */
export function validityBody(range: [Dayjs | null, Dayjs | null] | null | undefined): {
  ValidFrom?: string;
  ValidTo?: string;
} {
  const [from, to] = range ?? [null, null];
  return {
    ...(from ? { ValidFrom: from.toISOString() } : {}),
    ...(to ? { ValidTo: to.toISOString() } : {}),
  };
}
