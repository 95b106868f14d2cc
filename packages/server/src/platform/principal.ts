/** Who is calling: resolved from the session once per request (cached briefly, see auth/sessions.ts). */
export interface Principal {
  userId: number;
  userName: string;
  name: string;
  tokenHash: string;
  /** Holder of the built-in admin role: passes every permission and area check. */
  isAdmin: boolean;
  /** Flattened resource codes of the user's roles (plus 'admin' for admins). */
  codes: ReadonlySet<string>;
  /** Enabled areas the user may operate (every enabled area for admins). */
  areaIds: ReadonlySet<number>;
  /**
   * Present when the caller is an API key (platform/auth/api-keys.ts), not a person: the key's codes and areas
   * are the principal's, `userId` is 0 (no user), `userName` and `name` are the key's name, `tokenHash` the
   * key's hash. Operations for people only (`keys: false` in the contract) refuse it.
   */
  apiKey?: { id: number; name: string };
}

export { ADMIN_CODE } from '@gatehouse/shared';

export function hasAnyCode(principal: Principal, codes: readonly string[]): boolean {
  return principal.isAdmin || codes.some((code) => principal.codes.has(code));
}
