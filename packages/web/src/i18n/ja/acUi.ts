import type { CatalogueShape } from '@gatehouse/shared';
import type { acUi as zh } from '../zh/acUi.ts';

export const acUi: CatalogueShape<typeof zh> = {};
