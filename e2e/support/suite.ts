import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { TOKEN_COOKIE } from '@gatehouse/shared';
import { launchBrowser, openPage, type PageOptions } from './browser.ts';
import { SCREENSHOT_DIR, goto, waitForPath } from './app.ts';
import { DEMO_PASSWORD, NO_DEVICES, startServer, type RunningServer } from './server.ts';

export interface Suite {
  server: RunningServer;
  browser: Browser;
  /** A fresh browser context and page on the server (closed after the test). */
  open(options?: PageOptions): Promise<{ context: BrowserContext; page: Page }>;
  /** A fresh page logged in as a demo user (password Demo@2026) or as `admin`. */
  signedIn(user: string, options?: PageOptions): Promise<{ context: BrowserContext; page: Page }>;
  /**
   * With `devices: true`: the base URLs of the demo simulators' control APIs (SIMULATOR_CONTROL), to swipe a
   * card at a WG controller (`wg`: packages/wg-simulator/src/http.ts) or plug in a bike, fault a port or take a
   * charge point offline (`ocpp`: packages/ocpp-simulator/src/http.ts).
   */
  control(): Promise<{ wg: string; ocpp: string }>;
}

export interface SuiteOptions {
  /**
   * Run the demo's simulated door controllers and charge points, as `npm start` does. Off by default: the
   * simulators act on their own (swipes, sessions, authorisations reaching "issue succeeded"), which the
   * screen flows that assert a state they set must not race with; the device flows turn them on.
   */
  devices?: boolean;
}

/**
 * UDP ports of a server that runs the demo's devices: its simulated door controllers (DEMO_WG_PORTS, a hundred
 * per area above it) and its WG listener, in a range of this vitest worker's own (VITEST_POOL_ID 1, 2, …), so
 * files running side by side never share a port; below Linux's ephemeral ports (32768 and up).
 */
function devicePorts(): Record<string, string> {
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const base = 20_000 + (worker % 12) * 1000;
  return { DEMO_WG_PORTS: String(base), WG_LISTEN: `127.0.0.1:${base + 900}` };
}

/** The session token of a user, from the API's login (POST /api/Auth/login). */
async function apiLogin(baseUrl: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/Auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await response.json()) as { data?: { token?: string } };
  if (!response.ok || !body.data?.token)
    throw new Error(`Login of ${username} failed: ${response.status} ${JSON.stringify(body)}`);
  return body.data.token;
}

/**
 * One real server (fresh database, demo seed) and one Chromium per test file; every test opens its own
 * contexts, closed after it. Call at the top of a test file: `const suite = useSuite();`.
 */
export function useSuite(options: SuiteOptions = {}): Suite {
  const contexts: BrowserContext[] = [];
  const suite = {
    async open(options: PageOptions = {}) {
      const opened = await openPage(suite.browser, suite.server.url, options);
      contexts.push(opened.context);
      return opened;
    },
    async signedIn(user: string, options: PageOptions = {}) {
      // Signed in as the app keeps a session (its token cookie), through the API: the login form is the
      // subject of its own tests (shell-session, login-locks), and typing it again for each of about a hundred
      // tests cost a login page and a dashboard each. The app then opens where the test works.
      const opened = await suite.open(options);
      const token = await apiLogin(
        suite.server.url,
        user,
        user === 'admin' ? suite.server.adminPassword : DEMO_PASSWORD,
      );
      await opened.context.addCookies([
        { name: TOKEN_COOKIE, value: token, url: suite.server.url, sameSite: 'Strict' },
      ]);
      await goto(opened.page, options.at ?? '/dashboard');
      await opened.page.locator('[data-testid="navbar"]').waitFor({ timeout: 20_000 });
      await waitForPath(opened.page, options.at ?? '/dashboard', 20_000);
      return opened;
    },
    async control() {
      // main.ts prints the control URLs, then "Gatehouse is running at", a moment after /healthz answers.
      const deadline = Date.now() + 30_000;
      while (!suite.server.output().includes('Gatehouse is running at')) {
        if (Date.now() > deadline) throw new Error(`No start banner:\n${suite.server.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const out = suite.server.output();
      const wg = /WG simulator control: (\S+)/.exec(out)?.[1];
      const ocpp = /OCPP simulator control: (\S+)/.exec(out)?.[1];
      if (!wg || !ocpp) throw new Error(`The simulators' control APIs did not start:\n${out}`);
      return { wg, ocpp };
    },
  } as Suite;

  beforeAll(async () => {
    suite.server = await startServer({
      env: options.devices ? { SIMULATOR_CONTROL: '127.0.0.1:0', ...devicePorts() } : NO_DEVICES,
    });
    suite.browser = await launchBrowser();
  });
  afterEach(async ({ task }) => {
    const opened = contexts.splice(0);
    if (task.result?.state === 'fail')
      await keepEvidence(`${task.file.name}-${task.name}`, opened, suite.server);
    await Promise.all(opened.map((c) => c.close()));
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}

/**
 * What a failed test leaves to look at: each open page as it stood (e2e/screenshots/failed-….png) and the
 * server's output (warnings and errors: its devices' failures among them) beside them, its end printed too. A
 * failure seen once in CI (a controller's rules not in sync within a minute) could not be told apart without.
 */
async function keepEvidence(title: string, contexts: BrowserContext[], server: RunningServer | undefined) {
  const name = `failed-${title.replace(/[^\w.-]+/g, '-').slice(0, 120)}`;
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const pages = contexts.flatMap((c) => c.pages());
  for (const [i, page] of pages.entries())
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${i + 1}.png`) }).catch(() => {});
  if (!server) return;
  const output = server.output();
  fs.writeFileSync(path.join(SCREENSHOT_DIR, `${name}-server.log`), output);
  console.log(`${title}: failed; server output (end):\n${output.split('\n').slice(-40).join('\n')}`);
}
