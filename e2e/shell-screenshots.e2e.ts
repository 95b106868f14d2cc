import { describe, expect, it } from 'vitest';
import { goto, screenshot, untranslatedKeys } from './support/app.ts';
import { useSuite } from './support/suite.ts';

const suite = useSuite();

describe.each(['zh', 'en'] as const)('screenshots in %s', (language) => {
  it('login page', async () => {
    const { page } = await suite.open({ language });
    await goto(page, '/login');
    await page.locator('[data-testid="login-submit"]').waitFor();
    await page.locator('.login-logo').evaluate((img: HTMLImageElement) => img.decode());
    expect(
      await page.locator('.login-logo').evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBeGreaterThan(0);
    expect(await untranslatedKeys(page)).toEqual([]);
    await screenshot(page, `login-${language}`);
  });

  it('dashboard with tabs', async () => {
    const { page } = await suite.signedIn('admin', { language });
    for (const path of [
      '/accesscontrol/deviceManagement',
      '/Bicycle/chargeHost',
      '/organization/department',
      '/dashboard',
    ]) {
      await goto(page, path);
      await page.locator('[data-tab].active').waitFor();
    }
    await page.locator('[data-testid="dashboard-area-name"]').waitFor();
    expect(await page.locator('[data-tab]').count()).toBe(4);
    expect(await untranslatedKeys(page)).toEqual([]);
    await screenshot(page, `dashboard-${language}`);
  });

  it('settings panel', async () => {
    const { page } = await suite.signedIn('superadmin', { language });
    await page.locator('[data-testid="settings-button"]').click();
    await page.locator('.settings-drawer [data-setting="tagsView"]').waitFor();
    expect(await untranslatedKeys(page)).toEqual([]);
    await screenshot(page, `settings-${language}`);
  });

  it('mobile drawer', async () => {
    const { page } = await suite.signedIn('acadmin', { language, width: 800, height: 900 });
    await page.locator('[data-testid="navbar"] .hamburger').click();
    await page.locator('.sidebar-drawer [data-route="AccessControl"]').click();
    await page.locator('.sidebar-drawer [data-route="DeviceManagement"]').waitFor();
    expect(await untranslatedKeys(page)).toEqual([]);
    await screenshot(page, `mobile-drawer-${language}`);
  });
});
