export const LANGUAGES = ['zh', 'en', 'es', 'ja'] as const;
export type Lang = (typeof LANGUAGES)[number];

/** The server's default (spec: the product's default language is Chinese). */
export const DEFAULT_LANG: Lang = 'zh';

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Picks the first supported language from preference tags ("en-US", "zh-CN;q=0.8", "ja").
 * Quality values are honoured; unknown tags are skipped.
 */
export function matchLanguage(tags: readonly string[] | string | undefined | null, fallback: Lang): Lang {
  if (!tags) return fallback;
  const list = typeof tags === 'string' ? tags.split(',') : tags;
  const ranked = list
    .map((raw, index) => {
      const [tag = '', ...params] = raw.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return {
        base: tag.trim().toLowerCase().split('-')[0] ?? '',
        quality: Number.isNaN(quality) ? 0 : quality,
        index,
      };
    })
    .filter((t) => t.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const t of ranked) if (isLang(t.base)) return t.base;
  return fallback;
}
