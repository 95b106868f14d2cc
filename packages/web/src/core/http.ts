import i18next from 'i18next';
import { useAppStore } from '../stores/app.ts';
import { useAreaStore } from '../stores/area.ts';
import { getToken, useSessionStore } from '../stores/session.ts';
import { feedback } from './feedback.tsx';
import { createClient } from './request.ts';

/** The app's client, wired to the session, area and language stores and to antd's feedback. */
export const http = createClient({
  getToken,
  setToken: (token) => useSessionStore.getState().setToken(token),
  getAreaId: () => useAreaStore.getState().current?.Id ?? null,
  getLanguage: () => useAppStore.getState().language,
  translate: (key) => i18next.t(key),
  showError: (content, duration) => feedback.error(content, duration),
  confirmLogout: () => feedback.confirmLogout(),
});
