import type { appUserItem } from '@gatehouse/shared';
import { email, phone, url, zodRule } from '@gatehouse/shared';
import { z } from 'zod';
import { id, optionalText } from '../../../platform/schemas.ts';

/**
 * An avatar the web shows as an image source: an http(s) address or a path relative to the app. Other
 * schemes (javascript:, data:, file:) and protocol-relative //host addresses are refused.
 */
const avatar = optionalText(500).refine(
  (v) => !v || url(v) === null || /^(?![a-z][a-z0-9+.-]*:)(?![\\/]{2})[^\s\\]+$/i.test(v),
  { message: 'validation.url' },
);

export const passwordSchema = z.string().min(8).max(64);

export const userProfileFields = {
  Name: z.string().trim().min(1).max(50).optional(),
  Avatar: avatar,
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
  Avatar: avatar,
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

export type UserItem = z.infer<typeof appUserItem>;
