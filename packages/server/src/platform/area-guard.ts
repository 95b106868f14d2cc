import { AppError } from './errors.ts';
import type { Principal } from './principal.ts';

/**
 * The one area check every area-scoped call goes through: the caller must operate the area.
 * Admins operate every enabled area; others the enabled areas linked to them.
 */
export function assertAreaAccess(principal: Principal, areaId: number | undefined): number {
  if (areaId === undefined) throw new AppError(400, 'error.areaRequired');
  if (!principal.areaIds.has(areaId)) throw new AppError(403, 'error.areaForbidden');
  return areaId;
}

/**
 * X-Area-Id → a positive integer, or undefined when absent or malformed (which the guard refuses). Only
 * canonical digits: " 1 " and "01" name no area, so one area has one spelling in logs and caches.
 */
export function parseAreaHeader(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^[1-9]\d{0,8}$/.test(text)) return undefined;
  return Number(text);
}
