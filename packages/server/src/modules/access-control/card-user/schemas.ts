import { chineseName, citizenId, nation, phone, required, zodRule, type Validator } from '@gatehouse/shared';
import { z } from 'zod';
import { endAfterStart, enumNumber, id } from '../../../platform/schemas.ts';
import { bodyInstant, optionalText } from '../common.ts';

/** Optional text checked by a shared rule; blank is stored as null. */
const ruled = (max: number, rule: Validator) =>
  z
    .string()
    .trim()
    .max(max)
    .superRefine(zodRule(rule))
    .transform((v) => v || null)
    .nullable()
    .optional();

/** A holder as the form (and each import row) sends it. */
export const holderFields = {
  Name: z.string().trim().superRefine(zodRule(required, chineseName)),
  Phone: ruled(11, phone),
  // Both citizen-id messages come from the shared rule: a wrong shape or date, or a wrong check character.
  CitizenId: ruled(18, citizenId).transform((v) => (v ? v.toUpperCase() : v)),
  Nation: enumNumber(nation).optional(),
  DepartmentId: id.nullable().optional(),
  PeopleGroupId: id.nullable().optional(),
  PeopleTypeId: id.nullable().optional(),
  CardIds: z.array(id).max(20).optional(),
  ValidFrom: bodyInstant,
  ValidTo: bodyInstant,
  Remark: optionalText(200),
};

const validity = endAfterStart('ValidFrom', 'ValidTo');

export const createHolderBody = z.strictObject(holderFields).superRefine(validity);
export const updateHolderBody = z.strictObject({ Id: id, ...holderFields }).superRefine(validity);
