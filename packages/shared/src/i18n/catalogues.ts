import type { Lang } from './languages.ts';
import { zh } from './zh/index.ts';
import { en } from './en/index.ts';
import { es } from './es/index.ts';
import { ja } from './ja/index.ts';

/**
 * One catalogue per language, nested objects with i18next `{{name}}` placeholders.
 * The Chinese catalogue defines the shape; the others must match it key for key.
 */
export type Catalogue = typeof zh;
export type CatalogueShape<T> = {
  readonly [K in keyof T]: T[K] extends string ? string : CatalogueShape<T[K]>;
};

export const catalogues: Record<Lang, CatalogueShape<Catalogue>> = { zh, en, es, ja };
