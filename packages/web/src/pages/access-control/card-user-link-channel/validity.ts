import type { Dayjs } from 'dayjs';
import { fromSitePicker } from '../../../core/site-time.ts';

/** An optional validity range of a grant (picked at the site's clock): both ends as ISO instants, or none. */
export function validityBody(range: [Dayjs | null, Dayjs | null] | null | undefined): {
  ValidFrom?: string;
  ValidTo?: string;
} {
  const [from, to] = range ?? [null, null];
  return {
    ...(from ? { ValidFrom: fromSitePicker(from) } : {}),
    ...(to ? { ValidTo: fromSitePicker(to) } : {}),
  };
}
