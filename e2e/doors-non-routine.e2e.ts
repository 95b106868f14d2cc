import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  appPath,
  closeSelectList,
  confirmPopup,
  eventually,
  goto,
  pickOption,
  screenshot,
  stillness,
  toasts,
  untranslatedKeys,
} from './support/app.ts';
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
    checkServer: '系统一侧',
    checkController: '控制器一侧',
    failed: '开门失败',
    musterStarted: /^点名已开始：\d+ 人在场$/,
    musterMarked: /^已确认 1 人安全$/,
    musterEnded: /^点名已结束：\d+ 人安全，\d+ 人未到$/,
    safe: '已确认安全',
    reason: '消防演练：B2 烟感报警',
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
    checkServer: "Gatehouse's side",
    checkController: "The controller's side",
    failed: 'Door open failed',
    musterStarted: /^Roll call started: \d+ people inside$/,
    musterMarked: /^1 marked safe$/,
    musterEnded: /^Roll call ended: \d+ safe, \d+ missing$/,
    safe: 'Safe',
    reason: 'Fire drill: smoke alarm on B2',
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

/** The last number an element shows (a statistic: its title, then its value). */
async function lastNumber(locator: Locator): Promise<number> {
  const numbers = (await locator.innerText()).match(/\d+/g) ?? [];
  return Number(numbers.at(-1) ?? NaN);
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
  await closeSelectList(page);
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

  it('explains a refused swipe: the access check opened from the swipe list, both sides and who can pass', async () => {
    const { page } = await suite.signedIn('acadmin', {
      language,
      width: 1400,
      at: '/accesscontrol/doorOpeningRecords',
    });
    const rows = listRows(page);
    await rows.first().waitFor();
    // Only the failed ones, as an operator looking for a refusal would: the newest page of every swipe can be all
    // granted ones (in the demo's mornings it is).
    await pickOption(page, 'filter-Result', words.failed);
    await page.locator('[data-testid="list-search"]').click();
    await eventually(async () =>
      (await rows.allInnerTexts()).every((text) => text.includes(words.failed)),
    ).toBe(true);
    // A refused card swipe at a door offers the check; door events and alarms do not.
    const refused = rows.filter({ has: page.locator('[data-testid="row-accessCheck"]') }).first();
    await refused.waitFor();
    const card = (await refused.locator('.ac-card-number').first().innerText()).trim();
    await refused.locator('[data-testid="row-accessCheck"]').click();
    await eventually(() => appPath(page)).toMatch(/^\/accesscontrol\/accessCheck\?/);
    // The swipe's card, door and minute are what is asked.
    const screen = page.locator('[data-testid="access-check"]').filter({ visible: true });
    await expect(screen.locator('[data-testid="access-check-card"]').inputValue()).resolves.toBe(card);
    const result = screen.locator('[data-testid="access-check-result"]');
    // The controller's side is read live (here no controller answers: it says so after its tries).
    await result.waitFor({ timeout: 30_000 });
    const server = result.locator('[data-testid="access-check-server"]');
    const controller = result.locator('[data-testid="access-check-controller"]');
    await expect(server.innerText()).resolves.toContain(words.checkServer);
    await expect(controller.innerText()).resolves.toContain(words.checkController);
    // Each step with its verdict: the card first, then the holder, the door's rules.
    await eventually(() => server.locator('[data-step]').count()).toBeGreaterThan(3);
    await expect(server.locator('[data-step]').first().getAttribute('data-step')).resolves.toBe('card');
    await expect(server.locator('[data-step] [data-verdict-icon]').count()).resolves.toBeGreaterThan(3);
    // No controller answers in this run: its side is unknown, never guessed.
    await expect(controller.getAttribute('data-verdict')).resolves.toBe('unknown');
    await expect(controller.locator('[data-step="reach"]').getAttribute('data-verdict')).resolves.toBe(
      'unknown',
    );
    // Who can pass that door at that minute: a list of its own, exportable.
    const who = screen.locator('[data-testid="access-check-who"]');
    await who.waitFor();
    await who.locator('.ant-table').waitFor();
    expect(await untranslatedKeys(page)).toEqual([]);
    await stillness(result);
    await stillness(who);
    await screenshot(page, `access-check-${language}`);
  });

  it('starts a roll call of everyone inside on the muster screen, sees the missing count fall as one is marked safe', async () => {
    const { page } = await suite.signedIn('acadmin', {
      language,
      width: 1400,
      at: '/accesscontrol/muster',
    });
    // The demo opens with people inside (they came in within the last hour and a half of its seed).
    const inside = page.locator('[data-testid="occupancy-inside"]');
    await inside.waitFor();
    await eventually(() => lastNumber(inside)).toBeGreaterThan(0);
    const count = await lastNumber(inside);
    await expect(page.locator('[data-testid="occupancy-since"]').innerText()).resolves.toContain(
      'Asia/Shanghai',
    );

    // Started with a muster point (the first reader of the first controller) and a reason.
    await page.locator('[data-testid="muster-start"]').click();
    const dialog = openDialog(page, 'muster-reason');
    await dialog.waitFor();
    await stillness(dialog);
    await expect(dialog.locator('[data-testid="muster-start-inside"]').innerText()).resolves.toContain(
      String(count),
    );
    const tree = dialog.locator('[data-testid="channel-picker"]');
    await tree.waitFor();
    await stillness(tree);
    const point = tree.locator('.ant-tree-treenode').nth(1).locator('.ant-tree-checkbox');
    await point.click();
    await eventually(() => point.getAttribute('class')).toContain('ant-tree-checkbox-checked');
    await dialog.locator('[data-testid="muster-reason"]').fill(words.reason);
    await page.locator('[data-testid="muster-start-ok"]').click();
    await eventually(() => toasts(page)).toEqual(
      expect.arrayContaining([expect.stringMatching(words.musterStarted)]),
    );

    // Everyone inside is missing, in red, with who started it and why.
    const header = page.locator('[data-testid="muster-header"]');
    await header.waitFor();
    const missing = header.locator('[data-testid="muster-missing"]');
    await eventually(() => lastNumber(missing)).toBe(count);
    await expect(header.innerText()).resolves.toContain(words.reason);
    await expect(header.innerText()).resolves.toContain('郑国强');
    const rows = listRows(page);
    await eventually(() => rows.count()).toBeGreaterThan(0);

    // One marked safe by hand, after the confirmation: the count falls by one and the row says so.
    const first = rows.filter({ has: page.locator('[data-testid="row-markSafe"]') }).first();
    const name = (await first.locator('[data-testid="muster-person"] .ac-name').innerText()).trim();
    await first.locator('[data-testid="row-markSafe"]').click();
    await confirmPopup(page);
    await eventually(() => toasts(page)).toEqual(
      expect.arrayContaining([expect.stringMatching(words.musterMarked)]),
    );
    await eventually(() => lastNumber(missing)).toBe(count - 1);
    const marked = rows.filter({ hasText: name }).first();
    await eventually(() => marked.innerText()).toContain(words.safe);
    await expect(marked.locator('[data-testid="row-markSafe"]').count()).resolves.toBe(0);
    await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 15_000 });
    await stillness(header);
    await stillness(page.locator('.list-page').filter({ visible: true }).first());
    await expect(untranslatedKeys(page)).resolves.toEqual([]);
    await screenshot(page, `muster-${language}`);

    // Ended with a note: the result stays on screen with nothing more to mark (the next language starts its own).
    await header.locator('[data-testid="muster-end"]').click();
    const end = openDialog(page, 'muster-end-note');
    await end.waitFor();
    await stillness(end);
    await end.locator('[data-testid="muster-end-note"]').fill(language === 'zh' ? '演练结束' : 'Drill over');
    await page.locator('[data-testid="muster-end-ok"]').click();
    await eventually(() => toasts(page)).toEqual(
      expect.arrayContaining([expect.stringMatching(words.musterEnded)]),
    );
    await eventually(() => header.getAttribute('data-under-way')).toBe('false');
    await eventually(() => page.locator('[data-testid="row-markSafe"]').count()).toBe(0);
  });
});
