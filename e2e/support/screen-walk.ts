import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { goto, screenshot, stillness, untranslatedKeys } from './app.ts';
import { AXE_TAGS, blocking, countTable, runAxe, type ScreenResult } from './axe.ts';
import type { Suite } from './suite.ts';

/**
 * One walk over the dashboard and every screen the sidebar offers admin, plus the screens reached inside them,
 * for each language: on each screen the words are checked (no untranslated key), a screenshot is written for a
 * person to look at (e2e/screenshots/screen-<route>-<language>.png) and, where asked, axe-core checks WCAG 2 A
 * and AA, on the screen and on its create dialog. Before, the accessibility walk and three screenshot suites
 * each walked the same screens in both languages (six walks per language); one walk does their work.
 */

/** Screens that are not sidebar entries: the profile, the parking screen's other tabs, the socket grid. */
export const INNER_SCREENS = [
  '/profile/index',
  '/Bicycle/parkArea?tab=vehicles',
  '/Bicycle/parkArea?tab=passes',
  '/Bicycle/chargeEquipment?view=grid',
];

/**
 * Waits until the page on screen has drawn its data: something shown in the main area and nothing
 * visibly loading there (parts that load when scrolled to, like the dashboard's charts, are scrolled to
 * first). Cached tabs keep earlier pages in the document, hidden; only visible ones count.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      // At the bottom, while the page grows as its parts arrive.
      window.scrollTo(0, document.documentElement.scrollHeight);
      const main = document.querySelector('.app-main');
      if (!main) return false;
      const shown = (selector: string) =>
        [...main.querySelectorAll(selector)].some((el) => el.checkVisibility());
      return (
        shown('.ant-table-row, .ant-empty, [data-testid]') &&
        !shown('.ant-spin-spinning, .page-loading, .ant-skeleton-active')
      );
    },
    undefined,
    { timeout: 30_000 },
  );
  await page.evaluate(() => window.scrollTo(0, 0));
  // Out of the way of every control: no hover colours, no tooltip.
  await page.mouse.move(640, 25);
  // antd's entry animations (tab panes, cards) end before colours are measured.
  await stillness(page.locator('.app-main'));
}

/**
 * Waits until the open dialog has stopped moving: its zoom and every colour transition in it ended (a fixed wait
 * once measured the OK button mid-transition, #1990fe on white text, 3.21:1: CI, 29 Nov, 15:15), with the pointer
 * out of the way. Endless animations (a spinner) are not waited for.
 */
async function settleDialog(page: Page): Promise<void> {
  await page.mouse.move(640, 25);
  await stillness(page.locator('.ant-modal-wrap').filter({ visible: true }).last());
}

/** The sidebar's own links, in menu order (groups render their entries even while closed). */
async function sidebarScreens(page: Page): Promise<string[]> {
  await page.locator('[data-testid="sidebar"] a[data-route]').first().waitFor();
  const hrefs = await page
    .locator('[data-testid="sidebar"] a[data-route]:not([target="_blank"])')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.map((href) => href.replace(/^#/, ''));
}

export async function check(page: Page, screen: string, results: ScreenResult[]): Promise<void> {
  const found = await runAxe(page);
  results.push({ screen, ...found });
}

export function report(title: string, results: ScreenResult[]): void {
  console.log(`\naxe-core ${AXE_TAGS.join(', ')}: ${title}\n${countTable(results)}`);
  const left = results.flatMap((r) =>
    blocking(r).map((n) => `${r.screen}: ${n.rule} (${n.impact}) ${n.target} — ${n.summary}`),
  );
  expect(left, 'critical or serious violations not forced by the spec').toEqual([]);
  // Hidden cached pages are not checked (axe skips what is not rendered): every node named is on screen.
  expect(
    results.flatMap((r) => r.violations.filter((n) => !n.visible).map((n) => `${r.screen}: ${n.target}`)),
  ).toEqual([]);
}

/** A screen's file name: '/Bicycle/parkArea?tab=vehicles' → 'Bicycle-parkArea-tab-vehicles'. */
export function screenName(route: string): string {
  return route.replace(/^\//, '').replace(/[/?=&]+/g, '-');
}

/**
 * Walks half of the screens (1: the dashboard and the first half, 2: the rest) in a language: words,
 * screenshot and, with `axe`, the accessibility check of the screen and of its create dialog.
 */
export async function walkScreens(
  suite: Suite,
  language: 'zh' | 'en',
  half: 1 | 2,
  { axe }: { axe: boolean },
): Promise<void> {
  const { page } = await suite.signedIn('admin', { language });
  const results: ScreenResult[] = [];
  const look = async (route: string) => {
    expect(await untranslatedKeys(page), route).toEqual([]);
    await screenshot(page, `screen-${screenName(route)}-${language}`);
    if (axe) await check(page, route, results);
  };
  await settle(page);
  if (half === 1) await look('/dashboard');
  const every = [...(await sidebarScreens(page)).filter((path) => path !== '/dashboard'), ...INNER_SCREENS];
  // The route table gives admin every screen of the spec: a shrinking sidebar would shrink the walk.
  expect(every.length).toBeGreaterThanOrEqual(30);
  const middle = Math.ceil(every.length / 2);
  for (const route of half === 1 ? every.slice(0, middle) : every.slice(middle)) {
    await goto(page, route);
    await settle(page);
    await look(route);
    if (!axe) continue;
    // The screen's create dialog (the shared record form, or the screen's own), where it has one.
    const create = page.locator('.app-main [data-testid="list-create"]').filter({ visible: true });
    if ((await create.count()) === 1 && (await create.isEnabled())) {
      await create.click();
      await page.locator('[data-testid="record-form"]').filter({ visible: true }).waitFor();
      await settleDialog(page);
      await check(page, `${route} · create`, results);
      await page.locator('.ant-modal-wrap:visible .ant-modal-close').click();
      await page
        .locator('[data-testid="record-form"]')
        .filter({ visible: true })
        .waitFor({ state: 'detached' });
    }
  }
  if (axe) report(`every screen (${language}, half ${half})`, results);
}
