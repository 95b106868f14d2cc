import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, headless, without a profile folder (never pass --user-data-dir). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface PageOptions {
  /** The app's language cookie (zh, en, es, ja); none lets the app follow the browser language. */
  language?: string;
  /** The browser's own locale (navigator.language and Accept-Language), e.g. 'es-ES'. */
  locale?: string;
  width?: number;
  height?: number;
  /** The browser's time zone (IANA name, e.g. 'UTC'); the host's when absent. */
  timezoneId?: string;
  /** Where `signedIn` opens the app (an app route, e.g. '/accesscontrol/doorMonitor'); the dashboard by default. */
  at?: string;
  /**
   * The system's motion preference. 'reduce' by default: the app then skips its animations (as it does for an
   * operator who asks for that), so a test waits for no fade and no slide, and the browser draws less.
   * 'no-preference' keeps them, for the tests of the shell that cover the animated path.
   */
  motion?: 'reduce' | 'no-preference';
}

export const LANGUAGE_COOKIE = 'language';

/** Sets the app's language cookie for the server's origin (the app reads it at start). */
export async function setLanguageCookie(
  context: BrowserContext,
  baseUrl: string,
  language: string,
): Promise<void> {
  await context.addCookies([{ name: LANGUAGE_COOKIE, value: language, url: baseUrl }]);
}

/** A fresh context (cookies, storage) and page; errors the page logs are collected on `page.errors`. */
export async function openPage(
  browser: Browser,
  baseUrl: string,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    locale: options.locale ?? 'zh-CN',
    viewport: { width: options.width ?? 1366, height: options.height ?? 800 },
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    reducedMotion: options.motion ?? 'reduce',
  });
  if (options.language) await setLanguageCookie(context, baseUrl, options.language);
  const page = await context.newPage();
  return { context, page };
}
