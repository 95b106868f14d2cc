import { z } from 'zod';
import { url, zodRule } from '../../validators/index.ts';
import { operation } from '../operation.ts';
import { SUPER_ADMIN } from '../permissions.ts';

export const settingsValues = z.object({
  SiteTitle: z.string(),
  ImageBaseUrl: z.string(),
  SessionTtlSeconds: z.number(),
  LoginMaxFailures: z.number(),
  LoginLockMinutes: z.number(),
  ExportRetentionDays: z.number(),
  SwipeRetentionMonths: z.number(),
  ChargeRecordRetentionMonths: z.number(),
  PowerOffRetentionMonths: z.number(),
  ParkOrderRetentionMonths: z.number(),
  BudgetGraceSeconds: z.number(),
});
export type SettingsValues = z.output<typeof settingsValues>;

/** Bounds of BudgetGraceSeconds: one second up to ten minutes (a feeder's breaker does not wait longer). */
export const BUDGET_GRACE_MIN_S = 1;
export const BUDGET_GRACE_MAX_S = 600;

/** Bounds keep an operator from locking everyone out (a 10-second session) or keeping files forever. */
export const settingsChanges = z.strictObject({
  SiteTitle: z.string().trim().max(50).optional(),
  ImageBaseUrl: z.string().trim().max(300).superRefine(zodRule(url)).optional(),
  SessionTtlSeconds: z
    .number()
    .int()
    .min(300)
    .max(30 * 86_400)
    .optional(),
  LoginMaxFailures: z.number().int().min(3).max(50).optional(),
  LoginLockMinutes: z.number().int().min(1).max(1440).optional(),
  ExportRetentionDays: z.number().int().min(1).max(365).optional(),
  /** Months of swipe records kept; 0 keeps everything (docs/performance.md, "Growth bounded"). */
  SwipeRetentionMonths: z.number().int().min(0).max(240).optional(),
  /** The garage's record kinds, the same way: charging sessions with their orders, power-off records, parking orders. */
  ChargeRecordRetentionMonths: z.number().int().min(0).max(240).optional(),
  PowerOffRetentionMonths: z.number().int().min(0).max(240).optional(),
  ParkOrderRetentionMonths: z.number().int().min(0).max(240).optional(),
  /** Seconds a zone may stay above its power budget before sessions are limited or stopped (docs/garage.md). */
  BudgetGraceSeconds: z.number().int().min(BUDGET_GRACE_MIN_S).max(BUDGET_GRACE_MAX_S).optional(),
});
export type SettingsChanges = z.output<typeof settingsChanges>;

const TAG = 'Settings';

export const SettingsApi = {
  public: operation({
    method: 'GET',
    path: '/api/Settings/Public',
    summary: 'Settings the login page needs before anyone signs in (site title)',
    tag: TAG,
    access: 'public',
    reply: z.object({ SiteTitle: z.string() }),
  }),
  get: operation({
    method: 'GET',
    path: '/api/Settings',
    summary: 'System settings',
    tag: TAG,
    access: SUPER_ADMIN,
    reply: settingsValues,
  }),
  update: operation({
    method: 'PUT',
    path: '/api/Settings',
    summary: 'Change system settings; effective at once, without a restart',
    tag: TAG,
    access: SUPER_ADMIN,
    body: settingsChanges,
    reply: settingsValues,
  }),
};
