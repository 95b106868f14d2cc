import { email, phone, zodRule } from '@gatehouse/shared';
import { z } from 'zod';
import { id } from '../../../platform/schemas.ts';

export const passwordSchema = z.string().min(8).max(64);

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

export const userProfileFields = {
  Name: z.string().trim().min(1).max(50).optional(),
  Avatar: optionalText(500),
  Phone: optionalText(11).superRefine(zodRule(phone)),
  Email: optionalText(100).superRefine(zodRule(email)),
};

const userName = z
  .string()
  .trim()
  .min(2)
  .max(64)
  .regex(/^[A-Za-z0-9._@-]+$/, { message: 'validation.userName' });

/** What an administrator sets on a system user (besides password and status, which have their own calls). */
const accountFields = {
  Name: z.string().trim().min(1).max(50),
  Avatar: optionalText(500),
  Phone: optionalText(11).superRefine(zodRule(phone)),
  Email: optionalText(100).superRefine(zodRule(email)),
  DepartmentId: id.nullable().optional(),
  RoleIds: z.array(id).max(50).default([]),
  /** Areas the user operates, among the caller's own; the current area is always included. */
  AreaIds: z.array(id).max(200).default([]),
};

export const createUserBody = z.strictObject({
  UserName: userName,
  Password: passwordSchema,
  ...accountFields,
});
export const updateUserBody = z.strictObject({ Id: id, ...accountFields });

export type CreateUserInput = z.output<typeof createUserBody>;
export type UpdateUserInput = z.output<typeof updateUserBody>;

export const userItem = z.object({
  Id: z.number(),
  UserName: z.string(),
  Name: z.string(),
  Avatar: z.string().nullable(),
  Phone: z.string().nullable(),
  Email: z.string().nullable(),
  DepartmentId: z.number().nullable(),
  DepartmentName: z.string().nullable(),
  Disabled: z.boolean(),
  BuiltIn: z.boolean(),
  Roles: z.array(z.object({ Id: z.number(), Code: z.string(), Name: z.string() })),
  Areas: z.array(z.object({ Id: z.number(), Name: z.string() })),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type UserItem = z.infer<typeof userItem>;
