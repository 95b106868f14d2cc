import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { enumOptions, isLang } from '@gatehouse/shared';
import { useAreaStore } from '../../stores/area.ts';
import type { Option, OptionSource, TKey } from './types.ts';

/** The options of a select: an enumeration's labels, a fixed list, or a list loaded for the current area. */
export function useOptions(source: OptionSource | undefined): { options: Option[]; loading: boolean } {
  const { t, i18n } = useTranslation();
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
    const lang = isLang(i18n.language) ? i18n.language : 'zh';
    return { options: enumOptions(lang, source.def), loading: false };
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
