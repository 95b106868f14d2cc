import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { eventually, goto, screenshot, untranslatedKeys } from './support/app.ts';
import { useSuite } from './support/suite.ts';

/*
 * What the operator sees is true and complete (issue 15), looked at as a user would: the lists the operator
 * trial named, the operation log and the users screen with a locked account, in zh and en, at 1440 px and
 * at 390 px (a phone). On each: every column can be reached (none lies under the fixed actions column, no
 * cell spills under its neighbour), nothing but the table scrolls sideways, the breadcrumb, the date pickers
 * and the actions column fit the screen, and the settings button covers nothing.
 */
const suite = useSuite();

const LISTS = [
  { name: 'device-registration', path: '/accesscontrol/deviceRegistration' },
  // Found when its screenshot was looked at: a fixed scroll width squeezed the actions column over the sync time.
  { name: 'device-management', path: '/accesscontrol/deviceManagement' },
  { name: 'charge-rules', path: '/Bicycle/chargeRule' },
  { name: 'parking-zones', path: '/Bicycle/parkArea' },
  { name: 'monthly-passes', path: '/Bicycle/parkArea?tab=passes' },
  { name: 'export-log', path: '/export/log' },
  { name: 'sockets', path: '/Bicycle/chargeEquipment' },
  { name: 'parking-orders', path: '/Bicycle/parkorderRecords' },
  { name: 'operation-log', path: '/systemconfig/auditlog' },
  { name: 'users-locked', path: '/usermanagement/usermanagement' },
];

const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

async function api(path: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  const response = await fetch(`${suite.server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      'x-area-id': '1',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as { data: never } };
}

/** What is wrong with the layout of the list on screen now (empty when all is well). */
async function layoutProblems(page: Page): Promise<string[]> {
  const table = page.locator('.app-main .ant-table-wrapper').filter({ visible: true }).first();
  await table.locator('.ant-table-row').first().waitFor({ timeout: 30_000 });
  return table.evaluate(async (wrapper) => {
    const problems: string[] = [];
    const viewport = document.documentElement.clientWidth;
    const text = (el: Element) => (el.textContent ?? '').trim().slice(0, 40);
    const scroller = wrapper.querySelector<HTMLElement>('.ant-table-content, .ant-table-body');
    // Scrolled to its end, as a user would to reach the last columns.
    if (scroller) scroller.scrollLeft = scroller.scrollWidth;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const heads = [...wrapper.querySelectorAll('thead th')].filter(
      (th) => !th.classList.contains('ant-table-cell-scrollbar') && (th as HTMLElement).offsetWidth > 0,
    );
    const fixedEnd = heads.filter((th) => th.classList.contains('ant-table-cell-fix-end'));
    const edge = fixedEnd.length
      ? Math.min(...fixedEnd.map((th) => th.getBoundingClientRect().left))
      : Number.POSITIVE_INFINITY;
    for (const th of heads)
      if (!th.classList.contains('ant-table-cell-fix-end') && th.getBoundingClientRect().right > edge + 1)
        problems.push(`column "${text(th)}" lies under the fixed column`);
    for (const th of fixedEnd) {
      const box = th.getBoundingClientRect();
      if (box.right > viewport + 1 || box.left < 0) problems.push(`fixed column "${text(th)}" is off screen`);
    }
    // No cell's content runs past its cell (under the next column or the fixed one), unless clipped there.
    for (const td of wrapper.querySelectorAll('tbody tr.ant-table-row > td')) {
      const cell = td.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(td);
      const right = Math.max(...[...range.getClientRects()].map((r) => r.right), cell.right);
      if (right <= cell.right + 1) continue;
      const clipped = [...td.querySelectorAll('*')].some((el) => {
        const style = getComputedStyle(el);
        return style.overflowX !== 'visible' && el.getBoundingClientRect().right <= cell.right + 1;
      });
      if (!clipped && getComputedStyle(td).overflowX === 'visible')
        problems.push(`cell "${text(td)}" runs ${Math.round(right - cell.right)} px past its column`);
    }
    // Only the table scrolls sideways, never the page.
    if (document.documentElement.scrollWidth > viewport + 1)
      problems.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    // The breadcrumb and the filter controls fit the screen.
    for (const el of document.querySelectorAll('.app-breadcrumb, .app-main .list-page-filters .ant-picker'))
      if ((el as HTMLElement).offsetWidth > 0 && el.getBoundingClientRect().right > viewport + 1)
        problems.push(`"${text(el)}" ends off screen`);
    if (scroller) scroller.scrollLeft = 0;
    return [...new Set(problems)];
  });
}

// One test per language and width: the two widths in one test took close to the 120 s limit on a slow machine.
describe.each(['zh', 'en'] as const)('the trial lists in %s', (language) => {
  it.each(WIDTHS)('at $width px: every column reachable, nothing off screen, in words', async (size) => {
    // A locked account for the users screen, and an export for the export log.
    for (let i = 0; i < 5; i += 1)
      await api('/api/Auth/login', { method: 'POST', body: { username: 'deptuser', password: 'Wrong-1x' } });
    const signedIn = await api('/api/Auth/login', {
      method: 'POST',
      // Exporting a list takes that list's own permission too: admin holds every one.
      body: { username: 'admin', password: suite.server.adminPassword },
    });
    const token = (signedIn.body.data as { token: string }).token;
    expect(
      (
        await api('/api/ExportJob', {
          method: 'POST',
          token,
          body: { Resource: 'OperatorStaff', Title: '运营人员配置', Query: {} },
        })
      ).status,
    ).toBe(200);

    const found: string[] = [];
    const { page } = await suite.signedIn('admin', { language, ...size });
    for (const list of LISTS) {
      await goto(page, list.path);
      const problems = await layoutProblems(page);
      found.push(...problems.map((p) => `${list.name} ${size.width}: ${p}`));
      expect(await untranslatedKeys(page), list.name).toEqual([]);
      if (list.name === 'users-locked')
        await eventually(() => page.locator('[data-testid="login-locks"]:visible').count()).toBe(1);
      await page.mouse.move(size.width / 2, 10);
      await screenshot(page, `trial-${list.name}-${language}-${size.width}`);
    }
    expect(found).toEqual([]);
  });
});
