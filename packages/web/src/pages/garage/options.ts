import { PAGE_SIZE_MAX, isMonthlyChargeType } from '@gatehouse/shared';
import { http } from '../../core/http.ts';
import type { Option, OptionSource, Page, TKey } from '../../components/list-page/index.ts';

/** Pages through a garage list (the server pages at most PAGE_SIZE_MAX rows): choices for selects. */
export async function loadAll<T>(
  resource: string,
  query: Record<string, string | number> = {},
): Promise<T[]> {
  const items: T[] = [];
  for (let index = 1; index <= 50; index += 1) {
    const page = await http.get<Page<T>>(`/api/${resource}`, {
      query: { ...query, PageIndex: index, PageSize: PAGE_SIZE_MAX },
    });
    items.push(...page.Items);
    if (items.length >= page.Total || page.Items.length === 0) break;
  }
  return items;
}

interface Named {
  Id: number;
  Name: string;
}

export const zoneOptions: OptionSource = {
  kind: 'remote',
  key: 'garage.zones',
  load: async () =>
    (await loadAll<Named>('ParkArea', { SortField: 'Name', SortOrder: 'asc' })).map((z) => ({
      value: z.Id,
      label: z.Name,
    })),
};

interface RuleOption extends Named {
  ChargeType: number;
  Disabled: boolean;
}

const rules = () => loadAll<RuleOption>('ChargeRule', { SortField: 'ChargeType', SortOrder: 'asc' });

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

interface HostOption extends Named {
  SerialNumber: string;
}

export const hostOptions: OptionSource = {
  kind: 'remote',
  key: 'garage.hosts',
  load: async () =>
    (await loadAll<HostOption>('ChargeHost', { SortField: 'Name', SortOrder: 'asc' })).map((h) => ({
      value: h.Id,
      label: `${h.Name} (${h.SerialNumber})`,
    })),
};

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
