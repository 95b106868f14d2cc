import { useAreaStore } from '../stores/area.ts';
import { useSessionStore } from '../stores/session.ts';
import { useTabsStore } from '../stores/tabs.ts';
import { AuthApi } from '@gatehouse/shared';
import { call } from './api.ts';

// Signing in and out needs no route table, so it lives below the routing roof: the login page (loaded
// by the route table) can call it without importing the table back (app/session.ts loads the session).

/** Logs in with a trimmed username (spec section 5); the envelope's token becomes the session token. */
export async function login(username: string, password: string): Promise<void> {
  const data = await call(AuthApi.login, { body: { username: username.trim(), password } });
  useSessionStore.getState().setToken(data.token);
}

/**
 * Everything the session loaded goes: token cookie, user, roles, areas and tabs. Cached server data goes
 * with the layout, which clears the query cache when it unmounts.
 */
export function clearSession(): void {
  useSessionStore.getState().clear();
  useAreaStore.getState().clear();
  useTabsStore.getState().clear();
}

/** Ends the session on the server (best effort: an expired one is already gone) and forgets it here. */
export async function logout(): Promise<void> {
  if (useSessionStore.getState().token)
    await call(AuthApi.logout, {}, { silent: true }).catch(() => undefined);
  clearSession();
}
