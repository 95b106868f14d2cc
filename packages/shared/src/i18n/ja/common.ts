import type { CatalogueShape } from '../catalogues.ts';
import type { common as zh } from '../zh/common.ts';

export const common: CatalogueShape<typeof zh> = {
  listSeparator: '、',
};
