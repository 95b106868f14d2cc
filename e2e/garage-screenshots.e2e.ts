import { describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR, goto, screenshot, untranslatedKeys } from './support/app.ts';
import { useSuite } from './support/suite.ts';
import { choose, control, openCreate, rowAction, rows, stepToHostWith } from './garage-helpers.ts';

const suite = useSuite();

const TILE = '[data-testid="socket-tile"]';

async function shoot(page: Page, name: string, language: string) {
  expect(await untranslatedKeys(page), name).toEqual([]);
  await screenshot(page, `garage-${name}-${language}`);
}

describe.each(['zh', 'en'] as const)('garage screenshots in %s', (language) => {
  // Every /Bicycle screen is walked in both languages, words checked and shot, by screens-zh.e2e.ts and
  // accessibility.e2e.ts (e2e/support/screen-walk.ts); here the dashboard whole, with its charts drawn.
  it('the dashboard with its figures and charts, translated', async () => {
    const { page } = await suite.signedIn('bikeadmin', { language, width: 1440, height: 900 });
    const panel = page.locator('[data-testid="garage-panel"]');
    await panel.locator('.ant-statistic').first().waitFor({ timeout: 20_000 });
    await panel.scrollIntoViewIfNeeded();
    // The charts load when scrolled to: three canvases once echarts has drawn.
    await page.locator('[data-testid="garage-charts"] canvas').nth(2).waitFor({ timeout: 30_000 });
    await page.waitForTimeout(800);
    expect(await untranslatedKeys(page)).toEqual([]);
    // A viewport tall enough for the whole dashboard: a full-page capture would draw the fixed sidebar
    // at the wrong height.
    await page.setViewportSize({ width: 1440, height: 1300 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `garage-dashboard-${language}.png`) });
  });

  it('the dialogs: a charge rule, a charging host, a refund and a forced power-off', async () => {
    const { page } = await suite.signedIn('bikeadmin', { language, width: 1440, height: 900 });
    const [temporaryCharging, metered, api, paid] =
      language === 'zh'
        ? ['临时充电', '计量', '充电接口', '支付成功']
        : ['Temporary charging', 'Metered', 'Charging API', 'Paid'];

    await goto(page, '/Bicycle/chargeRule');
    await rows(page).first().waitFor();
    await openCreate(page);
    await choose(page, 'field-ChargeType', temporaryCharging);
    await choose(page, 'field-TemporaryChargeType', metered);
    await control(page, 'field-UnitPriceCents').fill('1.2');
    await page.locator('[data-testid="dialog-ok"]').click();
    await page.locator('.ant-form-item-explain-error').first().waitFor();
    await shoot(page, 'rule-form', language);
    await page.keyboard.press('Escape');
    await page.locator('.ant-modal-footer .ant-btn').first().click();

    await goto(page, '/Bicycle/chargeHost');
    await rows(page).first().waitFor();
    await openCreate(page);
    await choose(page, 'field-ChargingSystemType', api);
    await control(page, 'field-Endpoint').waitFor();
    await shoot(page, 'host-form', language);
    await page.locator('.ant-modal-footer .ant-btn').first().click();

    await goto(page, '/Bicycle/chargeorderRecords');
    await rows(page).first().waitFor();
    await choose(page, 'filter-PaymentState', paid);
    await control(page, 'list-search').click();
    const refundable = rows(page)
      .filter({ has: page.locator('[data-testid="row-Refund"]') })
      .first();
    await refundable.waitFor({ timeout: 30_000 });
    await rowAction(refundable, 'Refund').click();
    await page.locator('[data-testid="order-action-reason"]').waitFor();
    await shoot(page, 'refund-dialog', language);
    await page.locator('.ant-modal-footer .ant-btn').first().click();

    // A session on a charging-API host that is not connected (no charge point runs in this suite): the
    // power-off cannot reach it, and the dialog says so instead of "power cut".
    await goto(page, '/Bicycle/chargeEquipment?view=grid');
    await page.locator(TILE).first().waitFor({ timeout: 60_000 });
    const stranded = page.locator(`${TILE}[data-state="255"][data-card]`);
    expect(await stepToHostWith(page, stranded)).toBe(true);
    await stranded.first().locator('[data-testid="socket-power-off"]').click();
    await page.locator('[data-testid="power-off-reason"]').waitFor();
    await shoot(page, 'power-off-dialog', language);
    await page
      .locator('[data-testid="power-off-reason"]')
      .fill(language === 'zh' ? '插座冒烟' : 'Socket smoking');
    await page.locator('[data-testid="power-off-ok"]').click();
    const outcome = page.locator('[data-testid="power-off-outcome"]');
    await outcome.waitFor();
    expect(await outcome.getAttribute('data-cut')).toBe('false');
    expect(await outcome.innerText()).toContain(
      language === 'zh' ? '已记录，未下发：主机未连接' : 'Recorded, not sent: the host is not connected',
    );
    await shoot(page, 'power-off-not-sent', language);
    // The same on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(500);
    await shoot(page, 'power-off-not-sent-390', language);
    await page.locator('[data-testid="power-off-close"]').click();
    await shoot(page, 'socket-grid-390', language);
  });

  it('a narrow window (1024 px): the socket grid and the charging orders', async () => {
    const { page } = await suite.signedIn('bikeuser', {
      language,
      width: 1024,
      height: 768,
      at: '/Bicycle/chargeEquipment?view=grid',
    });
    await page.locator(TILE).first().waitFor({ timeout: 60_000 });
    await shoot(page, 'socket-grid-1024', language);
    await goto(page, '/Bicycle/chargeorderRecords');
    await rows(page).first().waitFor({ timeout: 20_000 });
    await shoot(page, 'chargeorder-records-1024', language);
  });
});
