import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, isEnumValue, type EnumDef } from '@gatehouse/shared';
import { z } from 'zod';

/** Transport helpers: query strings carry text, so numbers and flags are coerced here, once. */
export const id = z.coerce.number().int().min(1).max(2_147_483_647);

export const queryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const paging = {
  PageIndex: z.coerce.number().int().min(1).max(1_000_000).default(1),
  PageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
};

export const idParams = z.strictObject({ Id: id });

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ Items: z.array(item), Total: z.number().int() });
}

export interface Page<T> {
  Items: T[];
  Total: number;
}

/** A numeric enumeration value of the shared definitions (numbers in bodies, text in query strings). */
export function enumNumber(def: EnumDef<string, number>) {
  return z.coerce
    .number()
    .int()
    .refine((v) => isEnumValue(def, v), { message: 'validation.invalidOption' });
}
