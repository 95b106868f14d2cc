import Cookies from 'js-cookie';
import { create } from 'zustand';
import { TOKEN_COOKIE, type UserInfo } from '@gatehouse/shared';
import type { AppRoute } from '../app/route-types.ts';

export type { UserInfo };

/** The user session (spec section 3): token, name, avatar, roles, userinfo; plus the permitted routes. */
interface SessionState {
  token: string | null;
  info: UserInfo | null;
  roles: string[];
  name: string;
  avatar: string;
  /** The layout routes this user may open, after the permission filter. */
  permitted: AppRoute[];
  setToken(token: string): void;
  setInfo(info: UserInfo, permitted: AppRoute[]): void;
  /** Forgets the token (cookie included) and everything loaded with it. */
  clear(): void;
}

/** The avatar address: a relative `Avatar` is resolved against the server's `ImageBaseUrl`. */
export function avatarUrl(info: Pick<UserInfo, 'Avatar' | 'ImageBaseUrl'>): string {
  if (!info.Avatar) return '';
  if (/^(https?:)?\/\//i.test(info.Avatar) || info.Avatar.startsWith('data:')) return info.Avatar;
  return info.ImageBaseUrl
    ? `${info.ImageBaseUrl.replace(/\/+$/, '')}/${info.Avatar.replace(/^\/+/, '')}`
    : info.Avatar;
}

export const useSessionStore = create<SessionState>()((set) => ({
  token: Cookies.get(TOKEN_COOKIE) ?? null,
  info: null,
  roles: [],
  name: '',
  avatar: '',
  permitted: [],
  setToken: (token) => {
    Cookies.set(TOKEN_COOKIE, token, { sameSite: 'strict' });
    set({ token });
  },
  setInfo: (info, permitted) =>
    set({ info, roles: info.roles, name: info.Name, avatar: avatarUrl(info), permitted }),
  clear: () => {
    Cookies.remove(TOKEN_COOKIE);
    set({ token: null, info: null, roles: [], name: '', avatar: '', permitted: [] });
  },
}));

/** "Logged in" means a token cookie exists (spec section 4). */
export function getToken(): string | undefined {
  return Cookies.get(TOKEN_COOKIE);
}
