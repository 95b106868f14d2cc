import { email, phone, zodRule } from '@gatehouse/shared';
import { z } from 'zod';

export const passwordSchema = z.string().min(8).max(64);

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

export const userProfileFields = {
  Name: z.string().trim().min(1).max(50).optional(),
  Avatar: optionalText(500),
  Phone: optionalText(11).superRefine(zodRule(phone)),
  Email: optionalText(100).superRefine(zodRule(email)),
};
