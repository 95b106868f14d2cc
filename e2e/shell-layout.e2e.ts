import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  appPath,
  clickMenu,
  eventually,
  goto,
  stillness,
  tabMenu,
  toasts,
  waitForPath,
} from './support/app.ts';
import { useSuite } from './support/suite.ts';

// The shell's tests keep the app's animations (the other files run with reduced motion): the drawer, the dialogs and
// the tabs are checked on the path most operators see.
const suite = useSuite();

const tabNames = (page: Page) =>
  page
    .locator('[data-testid="tags-view"] [data-tab]')
    .evaluateAll((n) => n.map((e) => e.getAttribute('data-tab')));

describe('sidebar', () => {
  it('is open by default and remembers being collapsed across a reload', async () => {
    const { page, context } = await suite.signedIn('superadmin', { motion: 'no-preference', language: 'en' });
    const sidebar = page.locator('.sidebar-container');
    expect(await sidebar.getAttribute('data-collapsed')).toBe('false');
    expect((await sidebar.boundingBox())!.width).toBe(210);
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await eventually(() => sidebar.getAttribute('data-collapsed')).toBe('true');
    expect((await context.cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('0');
    await page.reload();
    await page.locator('[data-testid="navbar"]').waitFor();
    expect(await sidebar.getAttribute('data-collapsed')).toBe('true');
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await eventually(() => sidebar.getAttribute('data-collapsed')).toBe('false');
  });

  it('becomes a drawer under 992 px that closes on navigation and on resize', async () => {
    const { page } = await suite.signedIn('superadmin', {
      motion: 'no-preference',
      language: 'en',
      width: 800,
      height: 900,
    });
    expect(await page.locator('.sidebar-container').count()).toBe(0);
    const drawer = page.locator('.sidebar-drawer');
    expect(await drawer.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await drawer.locator('[data-route="Icons"]').waitFor();
    await drawer.locator('[data-route="Icons"]').click();
    await waitForPath(page, '/icon/index');
    await eventually(() => drawer.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await eventually(() => drawer.isVisible()).toBe(true);
    await page.setViewportSize({ width: 780, height: 900 });
    await eventually(() => drawer.isVisible()).toBe(false);
    // Back on a wide screen the fixed sidebar returns.
    await page.setViewportSize({ width: 1200, height: 900 });
    await page.locator('.sidebar-container').waitFor();
  });
});

describe('tabs', () => {
  it('offers refresh, close, close others and close all; the pinned dashboard never closes', async () => {
    const { page } = await suite.signedIn('superadmin', { motion: 'no-preference', language: 'en' });
    for (const path of ['/icon/index', '/i18n/index', '/error-log/log', '/export/log']) {
      await goto(page, path);
      await page.locator(`[data-tab].active`).waitFor();
    }
    expect(await tabNames(page)).toEqual(['Dashboard', 'Icons', 'I18n', 'ErrorLog', 'ExportLog']);
    expect(await page.locator('[data-tab="Dashboard"] .tags-view-close').count()).toBe(0);

    // Closing the active tab goes to the last remaining one.
    await tabMenu(page, 'ExportLog', 'Close');
    await waitForPath(page, '/error-log/log');
    expect(await tabNames(page)).toEqual(['Dashboard', 'Icons', 'I18n', 'ErrorLog']);

    // Closing another tab by its cross stays where we are.
    await page.locator('[data-tab="Icons"] .tags-view-close').click();
    expect(await tabNames(page)).toEqual(['Dashboard', 'I18n', 'ErrorLog']);
    expect(appPath(page)).toBe('/error-log/log');

    // The pinned tab's menu cannot close it.
    await page.locator('[data-tab="Dashboard"]').click({ button: 'right' });
    const closeItem = page
      .locator('.tags-view-menu')
      .last()
      .getByRole('menuitem', { name: 'Close', exact: true });
    expect(await closeItem.getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Escape');

    await tabMenu(page, 'I18n', 'Close Others');
    await waitForPath(page, '/i18n/index');
    expect(await tabNames(page)).toEqual(['Dashboard', 'I18n']);

    await tabMenu(page, 'I18n', 'Close All');
    await waitForPath(page, '/dashboard');
    expect(await tabNames(page)).toEqual(['Dashboard']);
  });

  it('keeps a cached page as typed, loses a noCache page (profile), and refresh re-mounts', async () => {
    const { page } = await suite.signedIn('superadmin', {
      motion: 'no-preference',
      language: 'en',
      at: '/icon/index',
    });
    const filter = page.locator('[data-testid="icons-filter"] input');
    await filter.fill('user');
    await goto(page, '/profile/index');
    const name = page.locator('[data-testid="profile-name"]');
    const original = await name.inputValue();
    expect(original).toBe('周明远');
    await name.fill('Typed but not saved');

    await page.locator('[data-tab="Icons"]').click();
    await waitForPath(page, '/icon/index');
    expect(await filter.inputValue()).toBe('user');

    await page.locator('[data-tab="Profile"]').click();
    await waitForPath(page, '/profile/index');
    await eventually(() => page.locator('[data-testid="profile-name"]').inputValue()).toBe(original);

    await page.locator('[data-tab="Icons"]').click();
    await tabMenu(page, 'Icons', 'Refresh');
    await eventually(() => page.locator('[data-testid="icons-filter"] input').inputValue()).toBe('');
  });

  it("hides a cached page's open dialog while the user is elsewhere, and shows it again as typed", async () => {
    const { page } = await suite.signedIn('admin', {
      motion: 'no-preference',
      language: 'en',
      at: '/dashboard',
    });
    await goto(page, '/usermanagement/usermanagement');
    await page.locator('[data-testid="list-create"]').click();
    const form = page.locator('[data-testid="record-form"]');
    await form.waitFor();
    await page.locator('[data-testid="field-UserName"]').fill('typed.before.back');

    // While the page is away, it runs on a CPU slowed four times, as on a busy machine: a hidden page's renders then
    // interleave with its effects the way they did when this test failed under load (the dialog's motion took the
    // reveal for a first mount, and the page failed on its focus call).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

    // Back (browser button) leaves the page with the dialog open: it must not float over the dashboard.
    await page.goBack();
    await waitForPath(page, '/dashboard');
    await form.waitFor({ state: 'hidden' });
    await page.locator('[data-testid="dashboard"]').waitFor();
    expect(await page.locator('.ant-modal-wrap:visible').count()).toBe(0);
    // The page under it takes clicks and keys: nothing invisible is in the way or holds the focus.
    await page.locator('[data-testid="menu-search-button"]').click();
    const search = page.locator('[data-testid="menu-search"] input');
    await eventually(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('Roles');
    await eventually(() => search.inputValue()).toBe('Roles');
    await page.keyboard.press('Escape');
    // Escape with no popup of this page open: it must not reach the hidden dialog of the page away (antd hands
    // Escape to the newest open dialog in the document, hidden or not).
    await page.keyboard.press('Escape');

    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await page.locator('[data-tab="UserAccounts"]').click();
    await waitForPath(page, '/usermanagement/usermanagement');
    // The page, not an error in its place ("This page failed: …", the error boundary's fallback).
    await form.waitFor().catch(async (error: Error) => {
      const main = await page.locator('.app-main').innerText();
      throw new Error(`${error.message}\npage shows: ${main.slice(0, 200)}`);
    });
    expect(await page.locator('[data-testid="field-UserName"]').inputValue()).toBe('typed.before.back');

    // A delete confirmation left open follows its page the same way.
    await page.locator('.ant-modal-footer .ant-btn').first().click();
    await form.waitFor({ state: 'detached' });
    await page.locator('[data-testid="row-delete"]').first().click();
    const confirmation = page.locator('.ant-popconfirm');
    await confirmation.waitFor();
    await page.goBack();
    await waitForPath(page, '/dashboard');
    await confirmation.waitFor({ state: 'hidden' });
  });
});

describe('settings panel', () => {
  it('changes theme, tabs, fixed header and logo, and keeps them after a reload', async () => {
    const { page } = await suite.signedIn('superadmin', { motion: 'no-preference', language: 'zh' });
    const button = page.locator('[data-testid="settings-button"]');
    expect((await button.boundingBox())!.y).toBe(90);
    await button.click();
    const drawer = page.locator('.settings-drawer');
    await drawer.getByText('系统布局配置').waitFor();
    // Clicked while it slides in, a switch or a swatch can be missed (CI, 29 Nov: the theme stayed #1890ff).
    await stillness(drawer);
    // Pinyin search is offered in Chinese.
    await drawer.locator('[data-setting="supportPinyinSearch"]').waitFor();

    await drawer.locator('[data-setting="tagsView"]').click();
    await eventually(() => page.locator('[data-testid="tags-view"]').count()).toBe(0);
    await drawer.locator('[data-setting="sidebarLogo"]').click();
    await page.locator('.sidebar-logo img[src="/logo.jpg"]').waitFor();
    await drawer.locator('[data-setting="fixedHeader"]').click();
    await page.locator('.app-header.fixed').waitFor();

    await drawer.locator('.ant-color-picker-trigger').click();
    const picker = page
      .locator('.ant-popover:not(.ant-popover-hidden)')
      .filter({ has: page.locator('.ant-color-picker-presets') });
    await picker.waitFor();
    await stillness(picker);
    await picker.locator('.ant-color-picker-presets-color:has(> [style*="17, 169, 131"])').click();
    await page.keyboard.press('Escape');
    await eventually(() =>
      page.evaluate(() => JSON.parse(localStorage.getItem('gatehouse-settings') ?? '{}').state?.theme),
    ).toBe('#11a983');

    await page.reload();
    await page.locator('[data-testid="navbar"]').waitFor();
    expect(await page.locator('[data-testid="tags-view"]').count()).toBe(0);
    await page.locator('.sidebar-logo').waitFor();
    await page.locator('.app-header.fixed').waitFor();
    const hamburgerColor = await page
      .locator('.ant-switch, .ant-btn-primary')
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(hamburgerColor).toBe('rgb(17, 169, 131)');
  });

  it('offers pinyin search only in Chinese', async () => {
    const { page } = await suite.signedIn('superadmin', { motion: 'no-preference', language: 'en' });
    await page.locator('[data-testid="settings-button"]').click();
    await page.locator('[data-setting="tagsView"]').waitFor();
    expect(await page.locator('[data-setting="supportPinyinSearch"]').count()).toBe(0);
  });
});

describe('size picker', () => {
  it('switches among four sizes, confirms and remembers', async () => {
    const { page, context } = await suite.signedIn('superadmin', { motion: 'no-preference', language: 'en' });
    const height = () =>
      page.locator('[data-testid="area-switcher"]').evaluate((el) => el.getBoundingClientRect().height);
    expect(await height()).toBe(32);
    await page.locator('[data-testid="size-picker"]').click();
    await page.getByRole('menuitem', { name: 'Default' }).click();
    await eventually(() => toasts(page)).toContain('Switch Size Success');
    await eventually(height).toBe(40);
    expect((await context.cookies()).find((c) => c.name === 'size')?.value).toBe('default');
    await page.locator('[data-testid="size-picker"]').click();
    await page.getByRole('menuitem', { name: 'Mini' }).click();
    await eventually(height).toBeLessThan(24 + 1);
    await page.reload();
    await page.locator('[data-testid="navbar"]').waitFor();
    expect(await height()).toBeLessThan(25);
  });
});

describe('navigation', () => {
  it('titles the page, builds the breadcrumb and scrolls to the top', async () => {
    const { page } = await suite.signedIn('superadmin', { motion: 'no-preference', language: 'en' });
    await clickMenu(page, 'AreaSettings', 'SystemSettings');
    await waitForPath(page, '/systemconfig/config');
    await eventually(() => page.title()).toBe('System Settings - Backend Management System');
    expect(await page.locator('.app-breadcrumb').innerText()).toMatch(
      /Dashboard\s*\/\s*Area Settings\s*\/\s*System Settings/,
    );
    await page.evaluate(() => {
      document.querySelector<HTMLElement>('.app-main')!.style.minHeight = '3000px';
      window.scrollTo(0, 500);
    });
    expect(await page.evaluate(() => window.scrollY)).toBe(500);
    await clickMenu(page, 'ErrorLog');
    await waitForPath(page, '/error-log/log');
    await eventually(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
