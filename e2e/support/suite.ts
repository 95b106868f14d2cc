import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, openPage, type PageOptions } from './browser.ts';
import { login } from './app.ts';
import { DEMO_PASSWORD, startServer, type RunningServer } from './server.ts';

export interface Suite {
  server: RunningServer;
  browser: Browser;
  /** A fresh browser context and page on the server (closed after the test). */
  open(options?: PageOptions): Promise<{ context: BrowserContext; page: Page }>;
  /** A fresh page logged in as a demo user (password Demo@2026) or as `admin`. */
  signedIn(user: string, options?: PageOptions): Promise<{ context: BrowserContext; page: Page }>;
}

/**
 * One real server (fresh database, demo seed) and one Chromium per test file; every test opens its own
 * contexts, closed after it. Call at the top of a test file: `const suite = useSuite();`.
 */
export function useSuite(): Suite {
  const contexts: BrowserContext[] = [];
  const suite = {
    async open(options: PageOptions = {}) {
      const opened = await openPage(suite.browser, suite.server.url, options);
      contexts.push(opened.context);
      return opened;
    },
    async signedIn(user: string, options: PageOptions = {}) {
      const opened = await suite.open(options);
      await login(opened.page, user, user === 'admin' ? suite.server.adminPassword : DEMO_PASSWORD);
      return opened;
    },
  } as Suite;

  beforeAll(async () => {
    suite.server = await startServer();
    suite.browser = await launchBrowser();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}
