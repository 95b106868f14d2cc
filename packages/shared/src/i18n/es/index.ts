import { errors } from './errors.ts';
import { validation } from './validation.ts';

import type { CatalogueShape } from '../catalogues.ts';
import type { zh } from '../zh/index.ts';

export const es: CatalogueShape<typeof zh> = { error: errors, validation };
