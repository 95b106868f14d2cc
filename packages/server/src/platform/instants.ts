import { isoInstant } from '@gatehouse/shared';

/** An epoch-ms column as the API's ISO string (null stays null): the one conversion every item uses. */
export function isoOrNull(ms: number | string | null | undefined): string | null {
  return ms === null || ms === undefined ? null : isoInstant(Number(ms));
}
