import { PERMISSION_CODES } from '@gatehouse/shared';

/**
 * Permission codes (the spec's role names, section 6) as the server returns them in `Info.roles`.
 * `admin` is the built-in administrator role: it passes every check. It is not `SuperAdmin`, which is
 * only a code that some routes ask for.
 */
export const ROLES = ['admin', ...PERMISSION_CODES] as const;

export type Role = (typeof ROLES)[number];

export const ADMIN_ROLE: Role = 'admin';
