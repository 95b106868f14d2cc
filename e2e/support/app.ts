import { expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { REPO_ROOT } from './server.ts';

export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'e2e/screenshots');

/** Opens an app route (hash routing): appPath('/dashboard') → /#/dashboard. */
export async function goto(page: Page, appPath: string): Promise<void> {
  await page.goto(`/#${appPath}`);
}

/** The app route shown now, e.g. '/login?redirect=%2Fdashboard'. */
export function appPath(page: Page): string {
  return new URL(page.url()).hash.replace(/^#/, '') || '/';
}

/** Waits until the app shows the given route (path, optionally with query). */
export async function waitForPath(page: Page, expected: string | RegExp, timeout = 15_000): Promise<void> {
  await page.waitForFunction(
    ([source, flags, text]) => {
      const current = window.location.hash.replace(/^#/, '') || '/';
      return source !== null ? new RegExp(source, flags ?? '').test(current) : current === text;
    },
    expected instanceof RegExp
      ? ([expected.source, expected.flags, null] as const)
      : ([null, null, expected] as const),
    { timeout },
  );
}

/** Logs in through the login form and waits for the layout (the dashboard unless a redirect was given). */
export async function login(page: Page, user: string, password: string): Promise<void> {
  if (!appPath(page).startsWith('/login')) await goto(page, '/login');
  await page.locator('input[name="username"]').fill(user);
  await page.locator('input[name="password"]').fill(password);
  const redirect = new URLSearchParams(appPath(page).split('?')[1] ?? '').get('redirect');
  await page.locator('[data-testid="login-submit"]').click();
  await page.locator('[data-testid="navbar"]').waitFor({ timeout: 20_000 });
  // The app lands on / and redirects to the dashboard; a test that navigates before that has settled
  // would be sent back by the redirect.
  if (!redirect) await waitForPath(page, '/dashboard', 20_000);
}

/** The session token the app keeps in its cookie. */
export async function sessionToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'REToken');
  if (!cookie) throw new Error('No REToken cookie: not logged in');
  return cookie.value;
}

/** Writes e2e/screenshots/<name>.png (git-ignored) after fonts and animations settle. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(400);
  // A capture waits for the compositor's next frame, which a starved renderer drew only after 30 s once (CI on a
  // slow machine, 30 Nov, screens-zh): the picture is for people to look at, so it may take longer.
  await page.screenshot({ path: file, timeout: 60_000 });
  return file;
}

/** Names (route table `name`) of every sidebar entry, groups and children alike. */
export async function sidebarEntries(page: Page): Promise<string[]> {
  await page.locator('[data-testid="sidebar"]').waitFor();
  return page
    .locator('[data-testid="sidebar"] [data-route]')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-route') ?? ''));
}

/** Text of the toasts (antd message) on screen now. */
export async function toasts(page: Page): Promise<string[]> {
  return page.locator('.ant-message-notice').allInnerTexts();
}

/** Clicks a sidebar entry by route name, opening its groups first: clickMenu(page, 'Organization', 'PeopleTypes'). */
export async function clickMenu(page: Page, ...names: string[]): Promise<void> {
  for (const [index, name] of names.entries()) {
    const entry = page.locator(`[data-testid="sidebar"] [data-route="${name}"]`).first();
    const isLast = index === names.length - 1;
    // A group that is open already must not be clicked again (that would close it).
    if (
      !isLast &&
      (await page
        .locator(`[data-testid="sidebar"] [data-route="${names[index + 1]}"]`)
        .first()
        .isVisible())
    )
      continue;
    await entry.click();
  }
}

/** `expect.poll` with a timeout that suits a browser on a busy machine (vitest's default is 1 s). */
export function eventually<T>(read: () => T | Promise<T>, timeout = 10_000) {
  return expect.poll(read, { timeout, interval: 100 });
}

/**
 * Waits until an element has stopped moving: no finite animation or transition runs in it, in its subtree or on
 * an ancestor (a drawer's text fades with the panel around it), and rc-motion marks none of them as entering or
 * leaving. A click or a measurement made during one can land beside its target or read a colour half-way (CI
 * runs of 29 Nov: a theme swatch missed, a dialog's OK at #1990fe, a drawer's labels measured mid-fade).
 */
export async function stillness(target: Locator): Promise<void> {
  // rc-motion marks a moving element with -enter/-appear/-leave classes a frame before its transition starts.
  const moving = '[class*="-enter"], [class*="-appear"], [class*="-leave"]';
  const movingNow = (el: Element, sel: string) =>
    !!el.closest(sel) || [...el.querySelectorAll(sel)].some((e) => e.checkVisibility());
  await eventually(() => target.evaluate(movingNow, moving)).toBe(false);
  await target.evaluate((el) => {
    const running = el.getAnimations({ subtree: true });
    for (let up = el.parentElement; up; up = up.parentElement) running.push(...up.getAnimations());
    return Promise.all(
      running
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    );
  });
}

/** Picks an option of a select that is not searched by typing (a short enumeration), by its whole label. */
export async function pickOption(page: Page, testId: string, label: string): Promise<void> {
  await page.locator(`[data-testid="${testId}"]`).click();
  const option = page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .first();
  await option.waitFor();
  // A dropdown still moving in (its zoom animation, a page settling after a dialog) can sit partly outside the
  // viewport for a moment; the option's own click handler is what matters here.
  await option.dispatchEvent('click');
}

/**
 * Closes a select's list still open after a pick (a multiple select stays open) with Escape, and presses nothing
 * when none is: a single select closes on its pick, and an Escape then reaches the dialog around it and closes it
 * (with reduced motion the list is gone at once; with motion it was still fading out, which hid this).
 */
export async function closeSelectList(page: Page): Promise<void> {
  const open = page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
    .filter({ visible: true });
  if ((await open.count()) > 0) await page.keyboard.press('Escape');
}

/**
 * Confirms the Popconfirm open now, and waits until it has closed. A popup still fading out from an earlier
 * confirm keeps its buttons in the DOM for a moment: the first visible one could be that one (a second click on
 * the earlier row's delete, and the new popup left open), so a closing popup is not taken.
 */
export async function confirmPopup(page: Page): Promise<void> {
  // Nor one still zooming in: a click while it moves can land beside OK and leave it open (CI, 29 Nov, 14:50).
  const open = page
    .locator(
      '.ant-popover:not(.ant-popover-hidden):not([class*="-leave"]):not([class*="-enter"]):not([class*="-appear"])',
    )
    .filter({ has: page.locator('.ant-popconfirm-buttons') });
  await open.last().locator('.ant-popconfirm-buttons .ant-btn-primary').click();
  await eventually(() => open.count()).toBe(0);
}

/**
 * Runs an action of a tab's right-click menu. The menu of the previous action may still be fading out (seen in a
 * CI run: the click landed while a menu zoomed, on the page behind it, and the menu closed unclicked), so only an
 * open menu that is not entering or leaving is taken, and the helper returns once it has closed.
 */
export async function tabMenu(page: Page, tab: string, action: string) {
  const open = page.locator(
    '.ant-dropdown:not(.ant-dropdown-hidden):not([class*="-leave"]):not([class*="-enter"]):not([class*="-appear"])',
  );
  await eventually(() => open.count()).toBe(0);
  await page.locator(`[data-tab="${tab}"]`).click({ button: 'right' });
  await open.locator('.tags-view-menu').getByText(action, { exact: true }).click();
  await eventually(() => open.count()).toBe(0);
}

/** Picks an area in the navbar switcher. */
export async function chooseArea(page: Page, name: string): Promise<void> {
  await page.locator('[data-testid="area-switcher"]').click();
  const option = page.locator('.ant-select-item-option').filter({ hasText: name });
  await option.waitFor();
  // The list is drawn off screen first and then moved under the switcher, and may still be sliding open:
  // pick the option by its click handler (what a click on it runs), independent of where it is drawn now.
  await option.dispatchEvent('click');
}

/** Namespaces of the catalogues (shared and web): a visible `namespace.key` means a missing translation. */
const KEY_NAMESPACES = [
  'route',
  'navbar',
  'settings',
  'tagsView',
  'dashboard',
  'login',
  'area',
  'request',
  'session',
  'ui',
  'message',
  'size',
  'errorLog',
  'profile',
  'list',
  'adminUi',
  'admin',
  'audit',
  'enum',
  'validation',
  'error',
  'common',
  'unit',
  'time',
  'accessControl',
  'garage',
  'acUi',
  'garageUi',
  'apiKeyUi',
  'webhookUi',
  'lockdownUi',
  'musterUi',
  'accessCheckUi',
  'accessCheck',
];
const KEY_PATTERN = new RegExp(`\\b(?:${KEY_NAMESPACES.join('|')})\\.[a-zA-Z][\\w.-]*\\b`, 'g');

/** Catalogue keys shown on screen instead of words (none may be). */
export async function untranslatedKeys(page: Page): Promise<string[]> {
  return (await page.locator('body').innerText()).match(KEY_PATTERN) ?? [];
}
