import type { Dayjs } from 'dayjs';
import {
  DEFAULT_DATE_FORMAT,
  formatInZone,
  siteTimeZone,
  toWallClock,
  wallClockToIso,
  zoneOffsetLabel,
  type DateInput,
} from '@gatehouse/shared';
import { useAreaStore } from '../stores/area.ts';

/*
 * The web side of "one clock per site" (shared `site-time.ts`): times are read and typed in the current
 * area's zone, not the browser's. Every cell, filter, form and picker goes through these helpers.
 */

/** The current area's zone (Custom.timezone), else the default site zone. */
export function siteZone(): string {
  return siteTimeZone(useAreaStore.getState().current?.Custom ?? null);
}

/** The current area's zone, re-rendering when the area changes. */
export function useSiteZone(): string {
  return siteTimeZone(useAreaStore((s) => s.current?.Custom ?? null));
}

/** The browser's own zone. */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** True when the site's clock reads differently from the browser's now (then screens name the zone). */
export function differsFromBrowser(zone: string, at: number = Date.now()): boolean {
  return zoneOffsetLabel(zone, at) !== zoneOffsetLabel(browserZone(), at);
}

/** An instant as the site's wall time; '' when absent. */
export function formatSiteTime(
  input: DateInput | null | undefined,
  pattern: string = DEFAULT_DATE_FORMAT,
): string {
  return formatInZone(input, siteZone(), pattern);
}

/** An instant as a picker value (the site's wall clock). */
export function toSitePicker(input: DateInput | null | undefined): Dayjs | null {
  return toWallClock(input, siteZone());
}

/** A picker value (the site's wall clock) as the API's ISO instant. */
export function fromSitePicker(wall: Dayjs): string {
  return wallClockToIso(wall, siteZone());
}

/** Now as a picker value: "today" is the site's today. */
export function siteNow(): Dayjs {
  return toWallClock(Date.now(), siteZone())!;
}
