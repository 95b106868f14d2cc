import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { confirmPopup, eventually, goto, screenshot, stillness, toasts } from './support/app.ts';
import { useSuite } from './support/suite.ts';

// Without the demo's device simulators (the suite's default): no controller answers, so a lockdown's doors stay
// "waiting for the controller" and a pass's doors are not on a controller yet. That is what the screens must say.
const suite = useSuite();

/** The words each language shows for what these flows assert (the web and shared catalogues' own). */
const WORDS = {
  zh: {
    bannerLockdown: '本区域已封锁：所有门常闭，刷卡不能开门',
    confirmed: /控制器已确认 0\/\d+ 个门/,
    started: '已发出；各门的状态会在控制器确认后显示',
    released: '已解除；各门正在恢复原有模式',
    none: '本区域未封锁，也未疏散',
    issued: /^已签发访客通行证，卡号 \d{10}$/,
    valid: /有效|未生效/, // not yet valid while its window has not begun (it starts next minute)
    revoked: '已撤销',
    zone: '时区 ',
  },
  en: {
    bannerLockdown: 'This area is locked down: every door normally closed, no card opens it',
    confirmed: /0 of \d+ doors confirmed by their controllers/,
    started: 'Sent; each door shows as confirmed once its controller answers',
    released: 'Released; the doors are going back to their own modes',
    none: 'This area is neither locked down nor evacuated',
    issued: /^Visitor pass issued, card number \d{10}$/,
    valid: /Valid|Not yet valid/,
    revoked: 'Revoked',
    zone: 'Time zone ',
  },
} as const;

/** The dialog open now, or the one holding this test id (not one fading out). */
function openDialog(page: Page, testId?: string): Locator {
  const dialogs = page.locator('.ant-modal-wrap:visible .ant-modal');
  return testId ? dialogs.filter({ has: page.locator(`[data-testid="${testId}"]`) }) : dialogs.last();
}

/** The visible rows of the main list. */
function listRows(page: Page): Locator {
  return page.locator('.list-page .ant-table-row').filter({ visible: true });
}

/** Picks the first holder the host picker offers (the area's demo holders), and returns its label. */
async function chooseFirstHolder(page: Page): Promise<string> {
  const select = page.locator('[data-testid="grant-holder"]');
  await select.click();
  const dropdown = page.locator('.ant-select-dropdown:visible').last();
  await dropdown.waitFor();
  const option = dropdown.locator('.ant-select-item-option:not(.ant-select-item-option-disabled)').first();
  await option.waitFor();
  await stillness(dropdown);
  const label = (await option.innerText()).trim();
  // Its own click handler, wherever the list is while it slides into place.
  await option.dispatchEvent('click');
  await eventually(() => select.innerText()).toContain(label.split(' ')[0]);
  await page.keyboard.press('Escape');
  return label;
}

describe.each(['zh', 'en'] as const)('doors out of routine (%s)', (language) => {
  const words = WORDS[language];

  it('locks the area down from the door monitor: a red banner on every screen of the area until released', async () => {
    const { page } = await suite.signedIn('acadmin', {
      language,
      width: 1400,
      at: '/accesscontrol/doorMonitor',
    });
    const panel = page.locator('[data-testid="lockdown-panel"]');
    await eventually(() => panel.innerText()).toContain(words.none);
    await expect(page.locator('[data-testid="lockdown-banner"]').count()).resolves.toBe(0);

    await panel.locator('[data-testid="lockdown-start"]').click();
    const dialog = openDialog(page, 'lockdown-dialog-text');
    await dialog.waitFor();
    await stillness(dialog);
    // The reason is required: nothing is sent without it.
    await expect(dialog.locator('[data-testid="lockdown-dialog-ok"]').isDisabled()).resolves.toBe(true);
    await dialog.locator('[data-lockdown-mode="lockdown"]').click();
    const reason = language === 'zh' ? '演练：东门发现可疑人员' : 'Drill: intruder seen at the east gate';
    await dialog.locator('[data-testid="lockdown-dialog-text"]').fill(reason);
    await dialog.locator('[data-testid="lockdown-dialog-ok"]').click();
    await eventually(() => toasts(page)).toContain(words.started);

    // The banner in the header, in this language, with who, why and how many doors are confirmed (none here: no
    // controller answers in this run, so every door waits for its controller).
    const banner = page.locator('[data-testid="lockdown-banner"]');
    await banner.waitFor();
    await expect(banner.getAttribute('data-mode')).resolves.toBe('lockdown');
    await expect(banner.innerText()).resolves.toContain(words.bannerLockdown);
    await expect(banner.innerText()).resolves.toContain(reason);
    await expect(banner.innerText()).resolves.toContain('郑国强');
    await expect(banner.locator('[data-testid="lockdown-banner-confirmed"]').innerText()).resolves.toMatch(
      words.confirmed,
    );
    // Red: antd's error alert.
    await expect(banner.evaluate((el) => el.classList.contains('ant-alert-error'))).resolves.toBe(true);
    await expect(panel.locator('[data-testid="lockdown-release"]').isVisible()).resolves.toBe(true);
    const doors = page.locator('[data-lockdown-state]');
    await eventually(() => doors.count()).toBeGreaterThan(0);
    const states = await doors.evaluateAll((tags) => tags.map((t) => t.getAttribute('data-lockdown-state')));
    expect(new Set(states)).toEqual(new Set(['pending']));
    await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 15_000 });
    await stillness(banner);
    await stillness(panel);
    await screenshot(page, `doors-lockdown-monitor-${language}`);

    // Another screen of the area shows it too.
    await goto(page, '/accesscontrol/userManagement');
    await listRows(page).first().waitFor();
    const other = page.locator('[data-testid="lockdown-banner"]').filter({ visible: true });
    await other.waitFor();
    await expect(other.innerText()).resolves.toContain(words.bannerLockdown);
    await stillness(page.locator('.list-page').filter({ visible: true }).first());
    await stillness(other);
    await screenshot(page, `doors-lockdown-holders-${language}`);

    // Released with a note from the door monitor: the banner is gone.
    await goto(page, '/accesscontrol/doorMonitor');
    await panel.locator('[data-testid="lockdown-release"]').click();
    const release = openDialog(page, 'lockdown-release-dialog-text');
    await release.waitFor();
    await stillness(release);
    await expect(release.locator('[data-testid="lockdown-release-dialog-ok"]').isDisabled()).resolves.toBe(
      true,
    );
    await release
      .locator('[data-testid="lockdown-release-dialog-text"]')
      .fill(language === 'zh' ? '已排查，无异常' : 'Checked: nothing found');
    await release.locator('[data-testid="lockdown-release-dialog-ok"]').click();
    await eventually(() => toasts(page)).toContain(words.released);
    await eventually(() => page.locator('[data-testid="lockdown-banner"]').count()).toBe(0);
    await expect(panel.locator('[data-testid="lockdown-start"]').isVisible()).resolves.toBe(true);
    await goto(page, '/accesscontrol/userManagement');
    await listRows(page).first().waitFor();
    await expect(page.locator('[data-testid="lockdown-banner"]').count()).resolves.toBe(0);
  });

  it('issues a visitor pass with its QR code, shows it in the list and revokes it', async () => {
    const { page } = await suite.signedIn('acadmin', {
      language,
      width: 1400,
      at: '/accesscontrol/visitorPass',
    });
    await page.locator('.list-page').filter({ visible: true }).first().waitFor();
    await page.locator('[data-testid="visitor-issue"]').click();
    const issue = openDialog(page);
    await issue.locator('[data-testid="visitor-name"]').waitFor();
    await stillness(issue);
    const visitor = language === 'zh' ? '访客欧阳明' : 'Visitor Ada Lovelace';
    await issue.locator('[data-testid="visitor-name"]').fill(visitor);
    await chooseFirstHolder(page);
    // The doors: every channel of the first controller in the tree.
    const tree = issue.locator('[data-testid="channel-picker"]');
    await tree.waitFor();
    await stillness(tree);
    const device = tree.locator('.ant-tree-treenode').first().locator('.ant-tree-checkbox');
    await device.click();
    await eventually(() => device.getAttribute('class')).toContain('ant-tree-checkbox-checked');
    // The window as the dialog opens it, at the area's clock (the next minute, for four hours).
    const window = issue.locator('.ant-picker-range input');
    const from = await window.nth(0).inputValue();
    const to = await window.nth(1).inputValue();
    expect(from).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    await page.locator('[data-testid="visitor-issue-ok"]').click();
    await eventually(() => toasts(page)).toEqual(
      expect.arrayContaining([expect.stringMatching(words.issued)]),
    );
    const card = /\d{10}/.exec((await toasts(page)).find((m) => words.issued.test(m))!)![0];

    // The issued pass is shown at once; closed, it is in the list with its card number.
    const shownAtOnce = openDialog(page);
    await eventually(() => shownAtOnce.locator('[data-testid="visitor-card"]').innerText()).toBe(card);
    await page.keyboard.press('Escape');
    await eventually(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
    const row = listRows(page).filter({ hasText: card });
    await eventually(() => row.count()).toBe(1);
    await expect(row.innerText()).resolves.toContain(visitor);
    await expect(row.innerText()).resolves.toMatch(words.valid);

    // Its detail, with the QR code (fetched as a PNG now) drawn.
    await row.locator('[data-testid="row-detail"]').click();
    const detail = openDialog(page);
    const qr = detail.locator('[data-testid="visitor-qr"]');
    await qr.waitFor();
    await eventually(() => qr.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await expect(detail.locator('[data-testid="visitor-card"]').innerText()).resolves.toBe(card);
    const facts = await detail.innerText();
    expect(facts).toContain(visitor);
    expect(facts).toContain(from);
    expect(facts).toContain(to);
    expect(facts).toContain(words.zone);
    // The issue's toast (5 s) would cover the header in the picture.
    await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 15_000 });
    await stillness(detail);
    await screenshot(page, `doors-visitor-pass-${language}`);

    // Revoked after the confirmation: the dialog and the list say so, and revoke is offered no more.
    await detail.locator('[data-testid="visitor-revoke"]').click();
    await confirmPopup(page);
    await eventually(() => detail.innerText()).toContain(words.revoked);
    await expect(detail.locator('[data-testid="visitor-revoke"]').count()).resolves.toBe(0);
    await page.keyboard.press('Escape');
    await eventually(() => row.innerText()).toContain(words.revoked);
    await expect(row.locator('[data-testid="row-revoke"]').count()).resolves.toBe(0);
  });
});
