import { accessControl } from './accessControl.ts';
import { accessCheck } from './accessCheck.ts';
import { admin } from './admin.ts';
import { audit } from './audit.ts';
import { common } from './common.ts';
import { enums } from './enums.ts';
import { errors } from './errors.ts';
import { garage } from './garage.ts';
import { time } from './time.ts';
import { units } from './units.ts';
import { validation } from './validation.ts';

import type { CatalogueShape } from '../catalogues.ts';
import type { zh } from '../zh/index.ts';

export const en: CatalogueShape<typeof zh> = {
  error: errors,
  validation,
  enum: enums,
  unit: units,
  time,
  common,
  admin,
  audit,
  accessControl,
  accessCheck,
  garage,
};
