import type { QueryClient } from '@tanstack/react-query';
import {
  DoorOpeningRecordApi,
  canonicalCardNumber,
  type DoorOpeningRecordItem,
  type HubEventOf,
  type Page,
} from '@gatehouse/shared';

type Query = Record<string, unknown>;

/** What a new record does to one cached page of the swipe list. */
export type Placement = { page: Page<DoorOpeningRecordItem> } | 'unchanged' | 'reload';

const flag = (v: unknown) => v === true || v === 'true' || v === '1' || v === 1;

/**
 * Whether the list's filters keep the record: true or false where the record says, null where only the
 * server can tell (a holder-name filter matches the holder's current name, which the record does not carry).
 */
export function filtersKeep(query: Query, item: DoorOpeningRecordItem): boolean | null {
  if (query.HolderName !== undefined) return null;
  if (query.Result !== undefined && flag(query.Result) !== item.Result) return false;
  if (query.DeviceId !== undefined && Number(query.DeviceId) !== item.DeviceId) return false;
  if (query.CardUserId !== undefined && Number(query.CardUserId) !== item.CardUserId) return false;
  if (query.CardNumber !== undefined && canonicalCardNumber(String(query.CardNumber)) !== item.CardNumber)
    return false;
  const at = Date.parse(item.At);
  if (query.StartTime !== undefined && at < Date.parse(String(query.StartTime))) return false;
  if (query.EndTime !== undefined && at > Date.parse(String(query.EndTime))) return false;
  return true;
}

/** Newest first, the newer id first within one instant: the server's order. */
const before = (a: DoorOpeningRecordItem, b: DoorOpeningRecordItem) => {
  const at = Date.parse(a.At) - Date.parse(b.At);
  return at === 0 ? a.Id > b.Id : at > 0;
};

/**
 * A record the hub announced, on one cached page of the list: inserted in its place when the page is the
 * first and the filters keep it (the total grows by one), nothing when the filters leave it out, and a
 * reload when only the server can tell (a later page, a holder-name filter, a record older than a full page).
 */
export function placeSwipe(
  page: Page<DoorOpeningRecordItem>,
  query: Query,
  item: DoorOpeningRecordItem,
): Placement {
  if (Number(query.PageIndex ?? 1) !== 1) return 'reload';
  const keep = filtersKeep(query, item);
  if (keep === null) return 'reload';
  if (!keep || page.Items.some((row) => row.Id === item.Id)) return 'unchanged';
  const size = Number(query.PageSize ?? page.Items.length);
  const at = page.Items.findIndex((row) => before(item, row));
  const index = at === -1 ? page.Items.length : at;
  if (index >= size) return 'reload';
  const Items = [...page.Items.slice(0, index), item, ...page.Items.slice(index)].slice(0, size);
  // The page keeps what else it says (RetainedFrom: the range reaches before what retention keeps).
  return { page: { ...page, Items, Total: page.Total + 1 } };
}

/** The record a Swipe or DoorAlarm event carries: the list's own item. */
function recordOf(event: HubEventOf<'Swipe' | 'DoorAlarm'>): DoorOpeningRecordItem {
  const { Type: _type, ...item } = event;
  return item;
}

/**
 * Applies a swipe or alarm the hub announced to every cached page of the swipe list of the current area:
 * each page takes it, leaves it, or is asked for again. Always handled here (true): nothing else reloads.
 */
export function applySwipe(
  event: HubEventOf<'Swipe' | 'DoorAlarm'>,
  queryClient: QueryClient,
  areaId: number | null,
): boolean {
  const item = recordOf(event);
  const pages = queryClient.getQueriesData<Page<DoorOpeningRecordItem>>({
    queryKey: ['list', DoorOpeningRecordApi.name, areaId],
  });
  for (const [key, page] of pages) {
    if (!page) continue;
    const placed = placeSwipe(page, (key[3] ?? {}) as Query, item);
    if (placed === 'reload') void queryClient.invalidateQueries({ queryKey: key, exact: true });
    else if (placed !== 'unchanged') queryClient.setQueryData(key, placed.page);
  }
  return true;
}
