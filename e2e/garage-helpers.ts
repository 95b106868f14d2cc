import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { closeSelectList } from './support/app.ts';

/** Helpers of the garage e2e files: the list page family's dialogs, selects and filters. */

/** The visible table rows of the list shown now (other tabs and cached pages keep theirs, hidden). */
export function rows(page: Page): Locator {
  return page.locator('.app-main .ant-table-row:visible');
}

/** The visible table row that shows this text. */
export function row(page: Page, text: string): Locator {
  return rows(page).filter({ hasText: text });
}

/** A control of the open dialog or the visible filter bar, by its data-testid. */
export function control(page: Page, testId: string): Locator {
  return page.locator(`[data-testid="${testId}"]:visible`).first();
}

export async function openCreate(page: Page): Promise<void> {
  await control(page, 'list-create').click();
  await page.locator('[data-testid="record-form"]').waitFor();
}

export async function submitDialog(page: Page): Promise<void> {
  await page.locator('[data-testid="dialog-ok"]').click();
}

/** Chooses options in an antd (multi) select by typing and picking the option with exactly that label. */
export async function choose(page: Page, testId: string, ...labels: string[]): Promise<void> {
  const select = control(page, testId);
  for (const label of labels) {
    await select.click();
    await page.keyboard.type(label);
    const option = page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      // The whole label: typing "Paid" must not pick "Unpaid".
      .filter({ hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
      .first();
    await option.waitFor();
    // By its click handler: the list may still be sliding into place (antd draws it off screen first).
    await option.dispatchEvent('click');
  }
  await closeSelectList(page);
}

/** Types into a text filter (or clears it with '') and searches. */
export async function search(page: Page, filter: string, text: string): Promise<void> {
  await control(page, `filter-${filter}`).fill(text);
  await control(page, 'list-search').click();
}

/** The messages shown under the fields of the open form. */
export function fieldErrors(page: Page): Promise<string[]> {
  return page.locator('.ant-modal:visible .ant-form-item-explain-error').allInnerTexts();
}

/** The labels of the fields the open form shows. */
export function fieldLabels(page: Page): Promise<string[]> {
  return page.locator('.ant-modal:visible .ant-form-item-label label').allInnerTexts();
}

/** The payment-state labels of the visible order rows. */
export function paymentStates(page: Page): Promise<string[]> {
  return page.locator('.app-main .ant-table-row:visible [data-payment-state]').allInnerTexts();
}

/** The button of a row action in a row (data-testid row-<key>). */
export function rowAction(target: Locator, key: string): Locator {
  return target.locator(`[data-testid="row-${key}"]`);
}

/** YYYY-MM-DD of the day `offset` days from today, in the local zone (browser and test share the machine's). */
export function dayFromToday(offset: number): string {
  // Days are the site's (the demo areas are in Asia/Shanghai), whatever zone this machine is in.
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' })
    .format(new Date())
    .split('-')
    .map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + offset)).toISOString().slice(0, 10);
}

/** Types a range into the visible list's date-range filter (the picker takes typed days, Enter confirms). */
export async function typeRange(page: Page, from: string, to: string): Promise<void> {
  const inputs = page.locator('.app-main .ant-picker-range:visible input');
  await inputs.nth(0).click();
  await inputs.nth(0).fill(from);
  await page.keyboard.press('Enter');
  await inputs.nth(1).fill(to);
  await page.keyboard.press('Enter');
}

/**
 * Steps through the socket grid's hosts (the "next host" arrow) until `wanted` is on screen; each step waits
 * for the next host's sockets. True when found.
 */
export async function stepToHostWith(page: Page, wanted: Locator, tries = 25): Promise<boolean> {
  const summary = page.locator('[data-testid="grid-host-summary"]');
  await summary.waitFor({ timeout: 60_000 });
  for (let i = 0; i < tries; i += 1) {
    if ((await wanted.count()) > 0) return true;
    const next = page.locator('[data-testid="grid-next-host"]');
    if (await next.isDisabled()) return false;
    const shown = await summary.innerText();
    await next.click();
    await expect
      .poll(async () => (await summary.isVisible()) && (await summary.innerText()) !== shown, {
        timeout: 15_000,
      })
      .toBe(true);
  }
  return (await wanted.count()) > 0;
}
