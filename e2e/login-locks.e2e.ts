import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  confirmPopup,
  eventually,
  goto,
  login,
  screenshot,
  toasts,
  untranslatedKeys,
} from './support/app.ts';
import { DEMO_PASSWORD } from './support/server.ts';
import { useSuite } from './support/suite.ts';

/*
 * Lockouts visible (issue 15): five failed logins lock a demo user; the users screen shows the lock (until
 * when, from which address) and AppUser/Admin lifts it, after which the user signs in.
 */
const suite = useSuite();

/** Fails a login through the login page; resolves with the toast it showed. */
async function failLogin(page: Page, user: string): Promise<void> {
  await page.locator('input[name="username"]').fill(user);
  await page.locator('input[name="password"]').fill('Wrong-Password-1');
  const answer = page.waitForResponse((r) => r.url().includes('/api/Auth/login'));
  await page.locator('[data-testid="login-submit"]').click();
  expect((await answer).status()).not.toBe(500);
}

describe('login locks on the users screen', () => {
  it('shows a locked demo user, unlocks it, and the user signs in', async () => {
    const victim = await suite.open();
    await goto(victim.page, '/login');
    for (let i = 0; i < 5; i += 1) await failLogin(victim.page, 'deptuser');
    // Locked now: even the right password is refused.
    await failLogin(victim.page, 'deptuser');
    await victim.page.locator('input[name="password"]').fill(DEMO_PASSWORD);
    const refused = victim.page.waitForResponse((r) => r.url().includes('/api/Auth/login'));
    await victim.page.locator('[data-testid="login-submit"]').click();
    expect((await refused).status()).toBe(429);

    for (const language of ['zh', 'en'] as const) {
      const { page } = await suite.signedIn('useradmin', {
        language,
        width: 1440,
        at: '/usermanagement/usermanagement',
      });
      const banner = page.locator('[data-testid="login-locks"]');
      await banner.waitFor();
      const text = await banner.innerText();
      expect(text).toContain('deptuser');
      expect(text).toMatch(
        language === 'zh'
          ? /锁定至 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/
          : /Locked until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/,
      );
      // The e2e browser comes from the loopback address.
      expect(text).toMatch(/127\.0\.0\.1|::1|every address|所有地址/);
      await page.locator('[data-testid="filter-Keyword"]').fill('deptuser');
      await page.locator('[data-testid="list-search"]').click();
      const row = page.locator('[data-testid="list-AppUser"] .ant-table-row', { hasText: 'deptuser' });
      await eventually(() => row.locator('[data-testid="lock-tag"]').count()).toBe(1);
      await expect(row.locator('[data-testid="row-unlock"]').count()).resolves.toBe(1);
      expect(await untranslatedKeys(page)).toEqual([]);
      await page.mouse.move(640, 25);
      await screenshot(page, `users-locked-${language}`);
      if (language === 'zh') {
        await page.locator('[data-testid="unlock-deptuser"]').click();
        await confirmPopup(page);
        await eventually(() => toasts(page)).toContain('已解锁，该用户可以重新登录');
        await eventually(() => banner.count()).toBe(0);
        await eventually(() => row.locator('[data-testid="lock-tag"]').count()).toBe(0);
        await expect(row.locator('[data-testid="row-unlock"]').count()).resolves.toBe(0);
        // Lock again for the English screenshot.
        await goto(victim.page, '/login');
        for (let i = 0; i < 5; i += 1) await failLogin(victim.page, 'deptuser');
      } else {
        // The row action unlocks as well.
        await row.locator('[data-testid="row-unlock"]').click();
        await confirmPopup(page);
        await eventually(() => toasts(page)).toContain('Unlocked; the user can sign in again');
        await eventually(() => banner.count()).toBe(0);
      }
    }

    await login(victim.page, 'deptuser', DEMO_PASSWORD);
    await expect(victim.page.locator('[data-testid="navbar"]').count()).resolves.toBe(1);
  });
});
