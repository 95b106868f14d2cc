import type { Lang } from '@gatehouse/shared';
import { loadLanguage, rememberLanguage } from '../i18n/index.ts';
import { useAppStore } from '../stores/app.ts';

export const LANGUAGE_NAMES: Record<Lang, string> = {
  zh: '中文',
  en: 'English',
  es: 'Español',
  ja: '日本語',
};

/** The user's choice: loads the language, remembers it in the cookie and re-renders antd in it. */
export async function changeLanguage(lang: Lang): Promise<void> {
  const locale = await loadLanguage(lang);
  rememberLanguage(lang);
  useAppStore.getState().setLanguage(lang, locale);
}
