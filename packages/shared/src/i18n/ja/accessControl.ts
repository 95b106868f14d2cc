import type { CatalogueShape } from '../catalogues.ts';
import type { accessControl as zh } from '../zh/accessControl.ts';

export const accessControl: CatalogueShape<typeof zh> = {};
