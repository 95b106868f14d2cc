import { describe, expect, it } from 'vitest';
import { screenshot, untranslatedKeys } from './support/app.ts';
import { useSuite } from './support/suite.ts';

const suite = useSuite();

// Every administration and organisation screen is walked in both languages, words checked and shot, by
// screens-zh.e2e.ts and accessibility.e2e.ts (e2e/support/screen-walk.ts); here the user form dialog.
describe.each(['zh', 'en'] as const)('administration screenshots in %s', (language) => {
  it('the user form dialog', async () => {
    const { page } = await suite.signedIn('admin', { language, at: '/usermanagement/usermanagement' });
    await page.locator('.app-main .ant-table-row').first().waitFor({ timeout: 20_000 });
    await page.locator('[data-testid="list-create"]').click();
    await page.locator('[data-testid="record-form"]').waitFor();
    await page.locator('[data-testid="dialog-ok"]').click();
    await page.locator('.ant-form-item-explain-error').first().waitFor();
    expect(await untranslatedKeys(page)).toEqual([]);
    await screenshot(page, `admin-user-form-${language}`);
  });
});
