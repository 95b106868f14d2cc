import i18next from 'i18next';
import { useAreaStore } from '../stores/area.ts';
import { useSessionStore, type UserInfo } from '../stores/session.ts';
import { useTabsStore } from '../stores/tabs.ts';
import { feedback } from './feedback.tsx';
import { http } from './http.ts';
import { filterRoutes } from './permission.ts';
import { RequestError } from './request.ts';
import { layoutRoutes } from './routes.tsx';

/** Logs in with a trimmed username (spec section 5); the envelope's token becomes the session token. */
export async function login(username: string, password: string): Promise<void> {
  const data = await http.post<{ token: string }>('/api/Auth/login', { username: username.trim(), password });
  useSessionStore.getState().setToken(data.token);
}

let loading: Promise<void> | null = null;

/**
 * Loads the user info, builds the permitted routes and picks the area (spec section 4). Rejects with the
 * message to show when the info is missing or has no roles; the caller then resets the token.
 */
export function loadSession(): Promise<void> {
  loading ??= (async () => {
    let info: UserInfo | null;
    try {
      info = await http.get<UserInfo | null>('/api/AppUser/Info', { silent: true });
    } catch (error) {
      const message = error instanceof RequestError ? error.message : i18next.t('session.verificationFailed');
      throw new Error(message, { cause: error });
    }
    if (!info) throw new Error(i18next.t('session.verificationFailed'));
    if (!Array.isArray(info.roles) || info.roles.length === 0)
      throw new Error(i18next.t('session.rolesRequired'));
    const permitted = filterRoutes(layoutRoutes, info.roles);
    useSessionStore.getState().setInfo(info, permitted);
    if (!useAreaStore.getState().init(info.AreaInfos ?? [])) feedback.error(i18next.t('area.noArea'));
  })().finally(() => {
    loading = null;
  });
  return loading;
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
    await http.post('/api/Auth/logout', undefined, { silent: true }).catch(() => undefined);
  clearSession();
}
