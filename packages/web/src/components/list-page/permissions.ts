import { ADMIN_ROLE } from '../../core/roles.ts';
import { useSessionStore } from '../../stores/session.ts';

/** Whether the signed-in user holds any one of these codes (admin holds them all), as the server checks. */
export function canUse(roles: readonly string[], codes: readonly string[]): boolean {
  return roles.includes(ADMIN_ROLE) || codes.some((code) => roles.includes(code));
}

export function useCan(codes: readonly string[]): boolean {
  const roles = useSessionStore((s) => s.roles);
  return canUse(roles, codes);
}
