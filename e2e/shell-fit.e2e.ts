import { describe, expect, it } from 'vitest';
import { useSuite } from './support/suite.ts';

/*
 * The shell keeps out of the content's way (issue 27): English sidebar entries on one line each, the settings
 * button clear of the content it floats over, the breadcrumb on a phone showing the page's own name, and a
 * name at its maximum length cut in its column instead of widening the list.
 */
const suite = useSuite();

describe('the shell fits its content', () => {
  it('at 1440 px in English: one-line sidebar entries, the settings button beside the content', async () => {
    const { page } = await suite.signedIn('admin', {
      language: 'en',
      width: 1440,
      height: 900,
      at: '/accesscontrol/doorOpeningRecords',
    });
    await page.locator('[data-testid="list-search"]').first().waitFor();
    // Every entry shown (the open group's and the group titles): one line, not cut.
    const entries = await page.locator('.sidebar .ant-menu-title-content').evaluateAll((nodes) =>
      nodes
        .filter((n) => (n as HTMLElement).offsetParent !== null)
        .map((n) => {
          const e = n as HTMLElement;
          const line = parseFloat(getComputedStyle(e).lineHeight);
          return {
            text: e.textContent,
            lines: Math.round(e.clientHeight / line),
            cut: e.scrollWidth > e.clientWidth,
          };
        }),
    );
    expect(entries.length).toBeGreaterThan(10);
    expect(entries.filter((e) => e.lines > 1 || e.cut)).toEqual([]);

    const button = (await page.locator('[data-testid="settings-button"]').boundingBox())!;
    const card = (await page.locator('.list-page').first().boundingBox())!;
    expect(card.x + card.width).toBeLessThanOrEqual(button.x);
  });

  it('at 390 px: the breadcrumb shows the page whole, the settings button beside the content', async () => {
    const { page } = await suite.signedIn('admin', {
      language: 'en',
      width: 390,
      height: 844,
      at: '/accesscontrol/doorOpeningRecords',
    });
    await page.locator('[data-testid="list-search"]').first().waitFor();
    const crumb = page.locator('.app-breadcrumb li:visible');
    expect(await crumb.allTextContents()).toEqual(['Swipe Records']);
    const cut = await crumb.evaluate((e) => e.scrollWidth > e.clientWidth);
    expect(cut).toBe(false);
    const button = (await page.locator('[data-testid="settings-button"]').boundingBox())!;
    const card = (await page.locator('.list-page').first().boundingBox())!;
    expect(card.x + card.width).toBeLessThanOrEqual(button.x);
  });
});
