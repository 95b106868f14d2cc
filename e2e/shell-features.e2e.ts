import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  chooseArea,
  stillness,
  eventually,
  goto,
  login,
  sessionToken,
  tabMenu,
  toasts,
  waitForPath,
} from './support/app.ts';
import { DEMO_PASSWORD } from './support/server.ts';
import { useSuite } from './support/suite.ts';

const suite = useSuite();

describe('languages (spec section 1)', () => {
  it('follows the language cookie', async () => {
    for (const [language, title] of [
      ['en', 'Login Form'],
      ['es', 'Inicio de sesión'],
      ['ja', 'システムログイン'],
      ['zh', '系统登录'],
    ] as const) {
      const { page } = await suite.open({ language, locale: 'fr-FR' });
      await goto(page, '/login');
      await eventually(() => page.locator('.login-title h1').innerText()).toBe(title);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
    }
  });

  it('without a cookie, matches the browser language among en, zh, es, ja, else English', async () => {
    for (const [locale, title] of [
      ['es-ES', 'Inicio de sesión'],
      ['zh-CN', '系统登录'],
      ['ja-JP', 'システムログイン'],
      ['fr-FR', 'Login Form'],
    ] as const) {
      const { page } = await suite.open({ locale });
      await goto(page, '/login');
      await eventually(() => page.locator('.login-title h1').innerText()).toBe(title);
    }
  });

  it('switches language with a message, remembers it, and asks the server in it', async () => {
    const { page, context } = await suite.open({ language: 'zh' });
    await goto(page, '/login');
    await page.locator('[data-language="en"]').click();
    await eventually(() => toasts(page)).toContain('Switch Language Success');
    expect((await context.cookies()).find((c) => c.name === 'language')?.value).toBe('en');
    // Server messages come in the chosen language too.
    await page.locator('input[name="username"]').fill('superadmin');
    await page.locator('input[name="password"]').fill('not-the-password');
    await page.locator('[data-testid="login-submit"]').click();
    await eventually(() => toasts(page)).toContain('Incorrect username or password');
    await login(page, 'superadmin', DEMO_PASSWORD);
    await page.locator('[data-testid="language-picker"]').click();
    await page.getByRole('menuitem', { name: '日本語' }).click();
    await eventually(() => toasts(page)).toContain('言語を切り替えました');
    await eventually(() => page.locator('[data-testid="sidebar"] [data-route="Dashboard"]').innerText()).toBe(
      'ダッシュボード',
    );
  });
});

describe('menu search', () => {
  /**
   * Types into the menu search as a user does: the box opened (or still open), holding the focus (it closes on
   * blur: a drawer still closing hands the focus back to its button, CI 29 Nov), then the results for this text
   * drawn and still.
   */
  async function search(page: Page, text: string): Promise<string[]> {
    const box = page.locator('[data-testid="menu-search"]');
    const input = box.locator('input');
    await stillness(page.locator('body'));
    if (!(await input.isVisible())) await page.locator('[data-testid="menu-search-button"]').click();
    await eventually(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    await input.fill(text);
    await eventually(() => input.inputValue()).toBe(text);
    const results = page.locator('.ant-select-dropdown:visible').last();
    await results.waitFor();
    await stillness(results);
    return results.locator('.ant-select-item-option').allInnerTexts();
  }

  it('finds a menu by English words and opens it', async () => {
    const { page } = await suite.signedIn('superadmin', { language: 'en' });
    expect((await search(page, 'area manage'))[0]).toBe('Area Settings > Area Management');
    await page.keyboard.press('Enter');
    await waitForPath(page, '/systemconfig/areatable');
  });

  it('finds a menu by Chinese and by pinyin, and not by pinyin once it is switched off', async () => {
    const { page } = await suite.signedIn('superadmin', { language: 'zh' });
    const pinyinLoads: string[] = [];
    page.on('request', (r) => {
      if (/\/assets\/.*\.js$/.test(r.url())) pinyinLoads.push(r.url());
    });
    expect(await search(page, '国际')).toContain('国际化');
    expect(await search(page, 'guojihua')).toContain('国际化');
    expect(await search(page, 'cuowu')).toContain('错误日志');
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="settings-button"]').click();
    await page.locator('[data-setting="supportPinyinSearch"]').click();
    await page.keyboard.press('Escape');
    await eventually(() => page.locator('.settings-drawer .ant-drawer-content').isVisible()).toBe(false);
    expect(await search(page, 'guojihua')).not.toContain('国际化');
  });

  it('loads pinyin only for Chinese', async () => {
    const { page } = await suite.signedIn('superadmin', { language: 'en' });
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('.js')) scripts.push(r.url());
    });
    expect((await search(page, 'icons'))[0]).toBe('Icons');
    const before = scripts.length;
    expect(await search(page, 'guojihua')).toEqual([]);
    expect(scripts.length).toBe(before);
  });
});

describe('areas (spec section 4)', () => {
  it('switches area, remembers it in Aid, sends it on every call and reloads the content', async () => {
    const { page } = await suite.signedIn('superadmin', { language: 'en' });
    const areaName = page.locator('[data-testid="dashboard-area-name"]');
    await eventually(() => areaName.innerText()).toBe('滨江花园社区');
    expect(await page.evaluate(() => localStorage.getItem('Aid'))).toBe('1');

    // A kept-alive page with typed input: re-mounted (emptied) by the area change.
    await goto(page, '/icon/index');
    await page.locator('[data-testid="icons-filter"] input').fill('user');
    // The dashboard, hidden in its tab while the icons were shown, catches up when shown again (AppMain keeps
    // hidden pages in React's Activity, 3f2e9ab): its area detail is fetched afresh for the area still current.
    const areaHeaders: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/'))
        areaHeaders.push(`${new URL(r.url()).pathname} ${r.headers()['x-area-id'] ?? '-'}`);
    });
    // The area's detail (the dashboard's), apart from what the layout asks for the area (its lockdown banner).
    const isDetail = (call: string) => /^\/api\/AreaInfo\/\d+ /.test(call);
    const details = () => areaHeaders.filter(isDetail);
    await page.locator('[data-tab="Dashboard"]').click();
    await eventually(() => details().length).toBe(1);
    await chooseArea(page, '科技园校区');
    await eventually(() => areaName.innerText()).toBe('科技园校区');
    await page.locator('[data-testid="dashboard-area"]').getByText('深圳市南山区科技园南区 8 栋').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('Aid'))).toBe('2');
    // The detail was asked for, then the re-mounted dashboard fetched it again, now with the new area; nothing
    // asked for the previous area after the switch.
    expect(details()).toEqual(['/api/AreaInfo/1 1', '/api/AreaInfo/2 1', '/api/AreaInfo/2 2']);
    // Whatever else was asked after the switch (the layout's lockdown state, its live hub) was for the new area.
    const switched = areaHeaders.indexOf('/api/AreaInfo/2 1');
    expect(areaHeaders.slice(switched + 1).filter((call) => !call.endsWith(' 2'))).toEqual([]);

    await page.locator('[data-tab="Icons"]').click();
    expect(await page.locator('[data-testid="icons-filter"] input').inputValue()).toBe('');

    await page.reload();
    await page.locator('[data-testid="navbar"]').waitFor();
    await goto(page, '/dashboard');
    await eventually(() => areaName.innerText()).toBe('科技园校区');
  });

  it('keeps the previous area when the detail is refused, with the spec message', async () => {
    const { page } = await suite.signedIn('superadmin', { language: 'en' });
    await page.route('**/api/AreaInfo/2', (route) =>
      route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ code: 403, msg: 'nope', data: null }),
      }),
    );
    await chooseArea(page, '科技园校区');
    await eventually(() => toasts(page)).toContain('Failed to query area info');
    expect(await toasts(page)).not.toContain('nope');
    expect(await page.locator('[data-testid="area-switcher"]').innerText()).toContain('滨江花园社区');
    expect(await page.evaluate(() => localStorage.getItem('Aid'))).toBe('1');
  });

  it('shows "Request error" for 5 seconds on a network failure, and keeps the area', async () => {
    const { page } = await suite.signedIn('superadmin', { language: 'en' });
    await page.route('**/api/AreaInfo/2', (route) => route.abort('connectionrefused'));
    await chooseArea(page, '科技园校区');
    const shownAt = Date.now();
    await eventually(() => toasts(page)).toEqual(['Request error']);
    expect(await page.locator('[data-testid="area-switcher"]').innerText()).toContain('滨江花园社区');
    await page.waitForTimeout(3500 - (Date.now() - shownAt));
    expect(await toasts(page)).toEqual(['Request error']);
    await eventually(() => toasts(page), 4000).toEqual([]);
    expect(Date.now() - shownAt).toBeGreaterThan(4500);
  });
});

describe('expired session (spec section 8)', () => {
  it('asks once to log in again, ignores backdrop clicks, and on confirm resets the token and reloads', async () => {
    const { page, context } = await suite.signedIn('superadmin', { language: 'zh' });
    // Revoke the session on the server, as an expiry would.
    const revoked = await fetch(`${suite.server.url}/api/Auth/logout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${await sessionToken(page)}` },
    });
    expect(revoked.status).toBe(200);

    // The next call finds the session gone.
    await chooseArea(page, '科技园校区');
    const dialog = page.locator('.logout-reminder');
    await dialog.getByText('登出提醒').waitFor();
    await dialog.getByText('登录已过期，请重新登录？').waitFor();
    await page.waitForTimeout(500);
    expect(await page.locator('.logout-reminder').count()).toBe(1);

    await page.mouse.click(10, 790);
    await page.waitForTimeout(300);
    expect(await dialog.isVisible()).toBe(true);

    await dialog
      .getByRole('button', { name: '取 消' })
      .or(dialog.getByRole('button', { name: '取消' }))
      .click();
    await eventually(() => dialog.isVisible()).toBe(false);
    expect((await context.cookies()).some((c) => c.name === 'REToken')).toBe(true);

    // Asked again by the next failing call: refreshing the dashboard refetches its area.
    await tabMenu(page, 'Dashboard', '刷新');
    await dialog.getByText('登出提醒').waitFor();
    await dialog.getByRole('button', { name: '重新登录' }).click();
    await waitForPath(page, /^\/login\?redirect=/);
    expect((await context.cookies()).some((c) => c.name === 'REToken')).toBe(false);
  });
});

describe('error log (spec section 8)', () => {
  it('collects runtime errors with message, component, info, URL and stack, and clears them', async () => {
    const { page } = await suite.signedIn('superadmin', { language: 'en', at: '/error-log/log' });
    expect(await page.locator('[data-testid="error-log-button"]').count()).toBe(0);
    await page.locator('[data-testid="trigger-render-error"]').click();
    await page.locator('[data-testid="trigger-event-error"]').click();
    await eventually(() => page.locator('[data-testid="error-log-button"]').count()).toBe(1);
    await eventually(() => page.locator('.ant-badge-count').innerText()).toBe('2');

    await page.locator('[data-testid="error-log-button"]').click();
    const dialog = page.locator('.error-log-dialog');
    await dialog.locator('.ant-table').waitFor();
    const rows = dialog.locator('.ant-table-tbody tr.ant-table-row');
    expect(await rows.count()).toBe(2);
    const render = await rows.nth(0).innerText();
    expect(render).toContain("Cannot read properties of undefined (reading 'name')");
    expect(render).toContain('Component: BrokenWidget');
    expect(render).toContain('/#/error-log/log');
    expect(render).toContain('at BrokenWidget');
    expect(await rows.nth(1).innerText()).toContain('Deliberate error from an event handler');

    await page.mouse.click(5, 5);
    await page.waitForTimeout(300);
    expect(await dialog.isVisible()).toBe(true);

    await dialog.getByRole('button', { name: 'Clear All' }).click();
    await eventually(() => page.locator('[data-testid="error-log-button"]').count()).toBe(0);
  });
});
