import {
  ChargeHostApi,
  ChargeRuleApi,
  PAGE_SIZE_MAX,
  ParkAreaApi,
  isMonthlyChargeType,
  type AnyResourceApi,
  type ListFilterIn,
  type ReplyOf,
} from '@gatehouse/shared';
import { call } from '../../core/api.ts';
import type { FilterDef, Option, OptionSource, Page, TKey } from '../../components/list-page/index.ts';

/** The row type of a resource's list. */
export type ItemOf<A extends AnyResourceApi> = ReplyOf<A['list']> extends { Items: (infer I)[] } ? I : never;

/** Pages through a garage list (the server pages at most PAGE_SIZE_MAX rows): choices for selects. */
export async function loadAll<A extends AnyResourceApi>(
  api: A,
  query?: ListFilterIn<A['def']>,
): Promise<ItemOf<A>[]> {
  const items: ItemOf<A>[] = [];
  for (let index = 1; index <= 50; index += 1) {
    const page = (await call(api.list, {
      query: { ...query, PageIndex: index, PageSize: PAGE_SIZE_MAX },
    } as never)) as Page<ItemOf<A>>;
    items.push(...page.Items);
    if (items.length >= page.Total || page.Items.length === 0) break;
  }
  return items;
}

export const zoneOptions: OptionSource = {
  kind: 'remote',
  key: 'garage.zones',
  load: async () =>
    (await loadAll(ParkAreaApi, { SortField: 'Name', SortOrder: 'asc' })).map((z) => ({
      value: z.Id,
      label: z.Name,
    })),
};

const rules = () => loadAll(ChargeRuleApi, { SortField: 'ChargeType', SortOrder: 'asc' });

export const ruleOptions: OptionSource = {
  kind: 'remote',
  key: 'garage.rules',
  load: async () => (await rules()).map((r) => ({ value: r.Id, label: r.Name })),
};

/** Enabled monthly rules: what a pass can be sold under. */
export const monthlyRuleOptions: OptionSource = {
  kind: 'remote',
  key: 'garage.monthlyRules',
  load: async () =>
    (await rules())
      .filter((r) => isMonthlyChargeType(r.ChargeType) && !r.Disabled)
      .map((r) => ({ value: r.Id, label: r.Name })),
};

export const hostOptions: OptionSource = {
  kind: 'remote',
  key: 'garage.hosts',
  load: async () =>
    (await loadAll(ChargeHostApi, { SortField: 'Name', SortOrder: 'asc' })).map((h) => ({
      value: h.Id,
      label: `${h.Name} (${h.SerialNumber})`,
    })),
};

/** The filters on where something happened: its zone and its host. */
export const placeFilters: FilterDef[] = [
  { name: 'ParkAreaId', label: 'garage.field.ZoneName', kind: 'select', options: zoneOptions },
  { name: 'ChargeHostId', label: 'garage.field.HostName', kind: 'select', options: hostOptions, width: 240 },
];

/**
 * A yes/no filter with words that fit it ("charging" / "ended"). The values are the query's text, so the
 * select never holds a boolean.
 */
export function flagOptions(yes: TKey, no: TKey): OptionSource {
  return {
    kind: 'static',
    options: (t): Option[] => [
      { value: 'true', label: t(yes) },
      { value: 'false', label: t(no) },
    ],
  };
}

/** The socket screen on one host's grid, or on one zone's sockets (a row action's link). */
export function socketsHref(preset: { ChargeHostId: number } | { ParkAreaId: number }): string {
  return 'ChargeHostId' in preset
    ? `/Bicycle/chargeEquipment?ChargeHostId=${preset.ChargeHostId}&view=grid`
    : `/Bicycle/chargeEquipment?ParkAreaId=${preset.ParkAreaId}`;
}

/**
 * Opens a screen from a list's row action (declared outside any component): the hash router follows the
 * address as it follows a link.
 */
export function openScreen(path: string): void {
  window.location.hash = path;
}
