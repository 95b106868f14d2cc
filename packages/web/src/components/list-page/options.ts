import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAreaStore } from '../../stores/area.ts';
import type { Option, OptionSource, TKey } from './types.ts';

/** The options of a select: an enumeration's labels, a fixed list, or a list loaded for the current area. */
export function useOptions(source: OptionSource | undefined): { options: Option[]; loading: boolean } {
  const { t } = useTranslation();
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const remote = source?.kind === 'remote' ? source : null;
  const query = useQuery({
    queryKey: ['options', remote?.key ?? '', areaId],
    queryFn: () => remote!.load(),
    enabled: remote !== null,
    staleTime: 30_000,
  });
  if (!source) return { options: [], loading: false };
  if (source.kind === 'enum') {
    // Labels through i18next (the words of the chosen language only), not shared's translate().
    const options = source.def.items.map((item) => ({
      value: item.value,
      label: String(t(item.key as never)),
      ...(item.color ? { color: item.color } : {}),
    }));
    return { options, loading: false };
  }
  if (source.kind === 'static')
    return { options: source.options((key: TKey) => t(key) as string), loading: false };
  return { options: query.data ?? [], loading: query.isLoading };
}

/** Finds an option's label in a (tree of) options. */
export function optionLabel(options: readonly Option[], value: unknown): string | undefined {
  for (const o of options) {
    if (o.value === value) return o.label;
    const nested = o.children ? optionLabel(o.children, value) : undefined;
    if (nested !== undefined) return nested;
  }
  return undefined;
}
