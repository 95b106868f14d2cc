import type { Lang } from './languages.ts';
import { catalogues } from './catalogues.ts';

export type Params = Record<string, string | number>;

type Tree = { readonly [key: string]: string | Tree };

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** i18next-style interpolation, so the web app can load the same catalogues into i18next unchanged. */
export function interpolate(text: string, params?: Params): string {
  if (!params) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** Translates a catalogue key; falls back to Chinese, then to the key itself (visible, never blank). */
export function translate(lang: Lang, key: string, params?: Params): string {
  const text = lookup(catalogues[lang] as Tree, key) ?? lookup(catalogues.zh as Tree, key) ?? key;
  return interpolate(text, params);
}

export function hasKey(lang: Lang, key: string): boolean {
  return lookup(catalogues[lang] as Tree, key) !== undefined;
}
