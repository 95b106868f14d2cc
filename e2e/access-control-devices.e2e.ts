import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { eventually, goto, screenshot, toasts, untranslatedKeys } from './support/app.ts';
import { useSuite } from './support/suite.ts';

/**
 * Device management, swipe records and channel door actions against the e2e server, which runs main.ts:
 * the WG gateway and the demo's simulated controllers (loopback), so WG devices come online, swipes arrive
 * live and door commands are carried out; the demo's third-party gates are refused with the server's message.
 */
const suite = useSuite();

function listRows(page: Page): Locator {
  // Cached tabs keep their hidden pages in the document: only the rows on screen count.
  return page
    .locator('.list-page > .ant-card-body > .ant-table-wrapper .ant-table-row')
    .filter({ visible: true });
}

/** Runs a row action that asks for confirmation, and confirms. */
async function confirmRowAction(page: Page, row: Locator, action: string): Promise<void> {
  await row.locator(`[data-testid="row-${action}"]`).click();
  await page.locator('.ant-popover:visible .ant-btn-primary').click();
}

async function waitForToast(page: Page, text: string | RegExp): Promise<void> {
  await eventually(
    async () =>
      (await toasts(page)).some((t) => (typeof text === 'string' ? t.includes(text) : text.test(t))),
    15_000,
  ).toBe(true);
}

describe('WG controllers on the screens', () => {
  it('device management: online state, firmware, drift, set time, sync now, refusal of a non-WG device', async () => {
    const { page } = await suite.signedIn('admin', { language: 'en' });
    await goto(page, '/accesscontrol/deviceManagement');
    await listRows(page).first().waitFor();
    // The gateway finds the simulated controllers shortly after start; the list reloads on deviceStatus.
    const online = listRows(page)
      .filter({ has: page.locator('[data-online="online"]') })
      .first();
    await online.waitFor({ timeout: 60_000 });
    expect(await online.innerText()).toMatch(/Online/);

    await confirmRowAction(page, online, 'setTime');
    await waitForToast(page, 'Time set');
    await online.locator('[data-testid="row-syncNow"]').click();
    await waitForToast(page, 'Sync started');

    const foreign = listRows(page)
      .filter({ has: page.locator('[data-online="unknown"]') })
      .first();
    await confirmRowAction(page, foreign, 'setTime');
    await waitForToast(page, 'is not a WG controller');
    expect(await untranslatedKeys(page)).toEqual([]);
  });

  it('channel management: open a door, then the remote-open record appears on the open swipe list', async () => {
    const { page } = await suite.signedIn('admin', { language: 'en' });
    await goto(page, '/accesscontrol/doorOpeningRecords');
    await listRows(page).first().waitFor();
    const before = await page.locator('[data-event-reason="44"]').filter({ visible: true }).count();

    await goto(page, '/accesscontrol/channelManagement');
    await listRows(page).first().waitFor();
    // The third-party gate (not a WG controller) is refused with the server's message.
    const foreign = listRows(page).filter({ hasText: 'gate' }).first();
    if (await foreign.count()) {
      await confirmRowAction(page, foreign, 'openDoor');
      await waitForToast(page, 'is not a WG controller');
    }
    const wg = listRows(page)
      .filter({ has: page.locator('[data-testid="row-openDoor"]') })
      .first();
    await confirmRowAction(page, wg, 'openDoor');
    await waitForToast(page, /Door \d opened/);

    await wg.locator('[data-testid="row-doorMode"]').click();
    const dialog = page.locator('.ant-modal:visible');
    await dialog.locator('[data-door-mode="3"]').click();
    await dialog.locator('.ant-btn-primary').click();
    await waitForToast(page, 'Door mode set');

    // Back on the kept swipe list, without a reload: the hub's swipe event brought the remote open in.
    await goto(page, '/accesscontrol/doorOpeningRecords');
    await eventually(
      () => page.locator('[data-event-reason="44"]').filter({ visible: true }).count(),
      30_000,
    ).toBeGreaterThan(before);
    expect(await untranslatedKeys(page)).toEqual([]);
  });
});

describe.each(['zh', 'en'] as const)('screenshots in %s', (language) => {
  it('device management and swipe records with door events', async () => {
    const { page } = await suite.signedIn('admin', { language });
    await goto(page, '/accesscontrol/deviceManagement');
    await listRows(page)
      .filter({ has: page.locator('[data-online="online"]') })
      .first()
      .waitFor({ timeout: 60_000 });
    await page.mouse.move(640, 25);
    expect(await untranslatedKeys(page)).toEqual([]);
    await screenshot(page, `access-control-devices-online-${language}`);

    await goto(page, '/accesscontrol/doorOpeningRecords');
    await page.locator('[data-event-reason]').filter({ visible: true }).first().waitFor({ timeout: 30_000 });
    await page.mouse.move(640, 25);
    expect(await untranslatedKeys(page)).toEqual([]);
    await screenshot(page, `access-control-door-events-${language}`);
  });
});
