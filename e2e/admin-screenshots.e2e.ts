import { describe, expect, it } from 'vitest';
import { goto, screenshot, untranslatedKeys } from './support/app.ts';
import { useSuite } from './support/suite.ts';

const suite = useSuite();

/** Every administration and organisation screen, with what shows it has loaded its data. */
const SCREENS = [
  { name: 'users', path: '/usermanagement/usermanagement', ready: '.ant-table-row' },
  { name: 'roles', path: '/usermanagement/role', ready: '.ant-table-row' },
  { name: 'operator-settings', path: '/usermanagement/adminConfig', ready: '.ant-table-row' },
  { name: 'areas', path: '/systemconfig/areatable', ready: '.ant-table-row' },
  { name: 'system-settings', path: '/systemconfig/config', ready: '[data-testid="settings-form"]' },
  { name: 'resources', path: '/systemconfig/resource', ready: '.ant-table-row' },
  { name: 'audit-log', path: '/systemconfig/auditlog', ready: '.ant-table' },
  { name: 'departments', path: '/organization/department', ready: '.ant-table-row' },
  { name: 'people-groups', path: '/organization/peoplegroup', ready: '.ant-table-row' },
  { name: 'people-types', path: '/organization/peoplegroup?kind=type', ready: '.ant-table-row' },
  { name: 'export-log', path: '/export/log', ready: '.ant-table' },
];

describe.each(['zh', 'en'] as const)('administration screenshots in %s', (language) => {
  it('every screen, translated, with its data', async () => {
    const { page } = await suite.signedIn('admin', { language });
    for (const screen of SCREENS) {
      await goto(page, screen.path);
      await page.locator(`.app-main ${screen.ready}`).first().waitFor({ timeout: 20_000 });
      expect(await untranslatedKeys(page), screen.name).toEqual([]);
      await screenshot(page, `admin-${screen.name}-${language}`);
    }
  });

  it('the user form dialog', async () => {
    const { page } = await suite.signedIn('admin', { language });
    await goto(page, '/usermanagement/usermanagement');
    await page.locator('.app-main .ant-table-row').first().waitFor({ timeout: 20_000 });
    await page.locator('[data-testid="list-create"]').click();
    await page.locator('[data-testid="record-form"]').waitFor();
    await page.locator('[data-testid="dialog-ok"]').click();
    await page.locator('.ant-form-item-explain-error').first().waitFor();
    expect(await untranslatedKeys(page)).toEqual([]);
    await screenshot(page, `admin-user-form-${language}`);
  });
});
