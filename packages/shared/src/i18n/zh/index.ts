import { errors } from './errors.ts';

export const zh = { error: errors } as const;
