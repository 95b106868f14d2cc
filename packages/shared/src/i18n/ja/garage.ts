import type { CatalogueShape } from '../catalogues.ts';
import type { garage as zh } from '../zh/garage.ts';

export const garage: CatalogueShape<typeof zh> = {};
