import { errors } from './errors.ts';

import type { CatalogueShape } from '../catalogues.ts';
import type { zh } from '../zh/index.ts';

export const en: CatalogueShape<typeof zh> = { error: errors };
