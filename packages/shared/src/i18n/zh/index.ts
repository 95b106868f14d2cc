import { errors } from './errors.ts';
import { validation } from './validation.ts';

export const zh = { error: errors, validation } as const;
