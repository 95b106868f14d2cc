import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import Cookies from 'js-cookie';
import dayjs from 'dayjs';
import type { Locale } from 'antd/es/locale';
import {
  isLang,
  LANGUAGE_COOKIE,
  LANGUAGES,
  matchLanguage,
  type Catalogue,
  type Lang,
} from '@gatehouse/shared';
import type { WebCatalogue } from './zh/index.ts';
import type { CatalogueShape } from '@gatehouse/shared';

/**
 * Each language is a chunk of its own (web words, shared words (messages, validation, enum labels), antd
 * locale, dayjs locale), loaded when chosen: the other three languages never reach the browser.
 */
const sharedCatalogues: Record<Lang, () => Promise<CatalogueShape<Catalogue>>> = {
  zh: () => import('@gatehouse/shared/i18n/zh').then((m) => m.zh),
  en: () => import('@gatehouse/shared/i18n/en').then((m) => m.en),
  es: () => import('@gatehouse/shared/i18n/es').then((m) => m.es),
  ja: () => import('@gatehouse/shared/i18n/ja').then((m) => m.ja),
};

const webCatalogues: Record<Lang, () => Promise<CatalogueShape<WebCatalogue>>> = {
  zh: () => import('./zh/index.ts').then((m) => m.zh),
  en: () => import('./en/index.ts').then((m) => m.en),
  es: () => import('./es/index.ts').then((m) => m.es),
  ja: () => import('./ja/index.ts').then((m) => m.ja),
};

const antdLocales: Record<Lang, () => Promise<Locale>> = {
  zh: () => import('antd/es/locale/zh_CN').then((m) => m.default),
  en: () => import('antd/es/locale/en_US').then((m) => m.default),
  es: () => import('antd/es/locale/es_ES').then((m) => m.default),
  ja: () => import('antd/es/locale/ja_JP').then((m) => m.default),
};

const dayjsLocales: Record<Lang, { name: string; load: () => Promise<unknown> }> = {
  zh: { name: 'zh-cn', load: () => import('dayjs/locale/zh-cn') },
  en: { name: 'en', load: () => Promise.resolve() },
  es: { name: 'es', load: () => import('dayjs/locale/es') },
  ja: { name: 'ja', load: () => import('dayjs/locale/ja') },
};

/** The language chosen before (cookie), else the browser's among en, zh, es, ja, else English (spec section 1). */
export function detectLanguage(
  cookie: string | undefined = Cookies.get(LANGUAGE_COOKIE),
  browser: readonly string[] = navigator.languages?.length ? navigator.languages : [navigator.language],
): Lang {
  if (isLang(cookie)) return cookie;
  return matchLanguage(browser, 'en');
}

/** Loads a language's words and locales into i18next and dayjs; returns antd's locale for it. */
export async function loadLanguage(lang: Lang): Promise<Locale> {
  const [shared, web, antd] = await Promise.all([
    sharedCatalogues[lang](),
    webCatalogues[lang](),
    antdLocales[lang](),
    dayjsLocales[lang].load(),
  ]);
  if (!i18next.hasResourceBundle(lang, 'translation')) {
    i18next.addResourceBundle(lang, 'translation', { ...shared, ...web }, true, true);
  }
  await i18next.changeLanguage(lang);
  dayjs.locale(dayjsLocales[lang].name);
  document.documentElement.lang = lang;
  return antd;
}

export function rememberLanguage(lang: Lang): void {
  Cookies.set(LANGUAGE_COOKIE, lang, { expires: 365 });
}

export async function initI18n(): Promise<void> {
  await i18next.use(initReactI18next).init({
    resources: {},
    lng: undefined,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    returnNull: false,
  });
}

export { i18next };
