import type { CatalogueShape } from '@gatehouse/shared';
import type { garageUi as zh } from '../zh/garageUi.ts';

export const garageUi: CatalogueShape<typeof zh> = {};
