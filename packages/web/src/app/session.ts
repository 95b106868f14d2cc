import i18next from 'i18next';
import { useAreaStore } from '../stores/area.ts';
import { useSessionStore, type UserInfo } from '../stores/session.ts';
import { feedback } from '../core/feedback.tsx';
import { AppUserApi } from '@gatehouse/shared';
import { call } from '../core/api.ts';
import { filterRoutes } from './permission.ts';
import { RequestError } from '../core/request.ts';
import { layoutRoutes } from './routes.tsx';

let loading: Promise<void> | null = null;

/**
 * Loads the user info, builds the permitted routes and picks the area (spec section 4). Rejects with the
 * message to show when the info is missing or has no roles; the caller then resets the token.
 */
export function loadSession(): Promise<void> {
  loading ??= (async () => {
    // The server's answer is checked, not trusted: a session without info or roles cannot be used.
    let info: UserInfo | null;
    try {
      info = await call(AppUserApi.info, {}, { silent: true });
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
