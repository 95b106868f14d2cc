import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { goto, screenshot, untranslatedKeys } from './support/app.ts';
import { useSuite } from './support/suite.ts';

const suite = useSuite();

// The ten screens themselves are walked in both languages, words checked and shot, by screens-zh.e2e.ts and
// accessibility.e2e.ts (e2e/support/screen-walk.ts); here what a walk does not open.

const LIST_ROWS = '.app-main .list-page > .ant-card-body > .ant-table-wrapper .ant-table-row';

/** Waits for the list's rows, moves the pointer out of the way (no stray tooltip) and checks the words. */
async function settle(page: Page, ready = LIST_ROWS): Promise<void> {
  // Cached tabs keep their hidden pages in the document: only what is on screen counts.
  await page.locator(ready).filter({ visible: true }).first().waitFor({ timeout: 30_000 });
  await page.mouse.move(640, 25);
  expect(await untranslatedKeys(page)).toEqual([]);
}

describe.each(['zh', 'en'] as const)('access-control screenshots in %s', (language) => {
  it('the dialogs: registration preview, holder form with the shared messages, batch grant', async () => {
    const { page } = await suite.signedIn('admin', { language, at: '/accesscontrol/deviceRegistration' });
    await settle(page);
    await page.locator('[data-testid="register-devices"]').click();
    await page.locator('[data-testid="field-SerialNumbers"]').fill('122009001,222009002,422009003,322009004');
    await page.locator('[data-testid="dialog-ok"]').click();
    await page.locator('.ant-form-item-explain-error').first().waitFor();
    await settle(page, '[data-testid="serial-preview"]');
    await screenshot(page, `access-control-register-devices-${language}`);
    await page.locator('.ant-modal-wrap:visible .ant-modal-close').click();

    await goto(page, '/accesscontrol/userManagement');
    await settle(page);
    await page.locator('[data-testid="list-create"]').click();
    await page.locator('[data-testid="field-Name"]').fill('Tom');
    await page.locator('[data-testid="field-CitizenId"]').fill('110105194912310023');
    await page.locator('[data-testid="field-Phone"]').fill('123');
    await page.locator('[data-testid="dialog-ok"]').click();
    await page.locator('.ant-form-item-explain-error').nth(2).waitFor();
    await settle(page, '[data-testid="record-form"]');
    await screenshot(page, `access-control-holder-form-${language}`);
    await page.locator('.ant-modal-wrap:visible .ant-modal-close').click();

    await goto(page, '/accesscontrol/cardUserLinkChannel');
    await settle(page);
    await page.locator('[data-testid="grant-batch"]').click();
    await settle(page, '.ac-channel-tree .ant-tree-treenode');
    await screenshot(page, `access-control-batch-grant-${language}`);
  });

  it('a narrow window, a long device name and an empty list', async () => {
    const { page } = await suite.signedIn('admin', {
      language,
      width: 1024,
      height: 768,
      at: '/accesscontrol/deviceManagement',
    });
    await settle(page);
    await page
      .locator(LIST_ROWS)
      .filter({ hasText: '东门主入口' })
      .locator('[data-testid="row-edit"]')
      .click();
    await page.locator('[data-testid="field-Name"]').fill('东门主入口人行通道闸机（北侧靠近岗亭）');
    await page.locator('[data-testid="dialog-ok"]').click();
    await page.locator(LIST_ROWS).filter({ hasText: '北侧靠近岗亭' }).waitFor();
    await settle(page);
    await screenshot(page, `access-control-device-management-narrow-${language}`);

    await goto(page, '/accesscontrol/cardUserLinkChannel');
    await settle(page);
    await screenshot(page, `access-control-authorizations-narrow-${language}`);

    await goto(page, '/accesscontrol/doorOpeningRecords');
    await settle(page);
    await page.locator('[data-testid="filter-HolderName"]').fill('无此人');
    await page.locator('[data-testid="list-search"]').click();
    await settle(page, '.app-main .list-page .ant-empty');
    await screenshot(page, `access-control-door-records-empty-${language}`);
  });
});
