import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { goto, screenshot, sessionToken } from './support/app.ts';
import { blocking, runAxe } from './support/axe.ts';
import { useSuite } from './support/suite.ts';

/*
 * Issue 21, "Must show" 3: the dashboard as the operator's console (its live figures, open alarms and latest
 * events above the fold at 1440x900, and first on a phone); its host, socket and session figures agreeing with
 * each other and with the lists; the wide tables at 1440 px with their key columns in view; the operation log in
 * Chinese without raw field identifiers. Screenshots in zh and en (e2e/screenshots/console-*.png).
 */
const suite = useSuite();

const FOLD = { width: 1440, height: 900 };

async function api<T>(page: Page, url: string): Promise<T> {
  const token = await sessionToken(page);
  const reply = await page.request.get(url, {
    headers: { authorization: `Bearer ${token}`, 'x-area-id': '1' },
  });
  return ((await reply.json()) as { data: T }).data;
}

/** The bottom edge of each element, in page coordinates (scrolled to the top). */
async function bottoms(page: Page, selectors: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const selector of selectors) {
    const box = await page.locator(selector).first().boundingBox();
    out[selector] = box ? Math.round(box.y + box.height) : Number.POSITIVE_INFINITY;
  }
  return out;
}

const LIVE = [
  '[data-testid="ac-figure-online"]',
  '[data-testid="ac-figure-alarms"]',
  '[data-testid="figure-sockets"]',
  '[data-testid="figure-idle-fault"]',
  '[data-testid="figure-hosts"]',
  '[data-testid="figure-open-sessions"]',
  '[data-testid="figure-parking-revenue"]',
];

describe.each(['zh', 'en'] as const)('the operator console in %s', (language) => {
  it('shows the live figures, open alarms and latest events above the fold at 1440x900', async () => {
    const { page } = await suite.signedIn('admin', { language, ...FOLD });
    for (const selector of [
      ...LIVE,
      '[data-testid="dashboard-events"] .ant-list, [data-testid="dashboard-events"] .ant-empty',
    ])
      await page.locator(selector).first().waitFor({ timeout: 20_000 });
    await page.locator('.ac-alarms, .ac-alarms-empty').first().waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    const edges = await bottoms(page, [
      ...LIVE,
      '.ac-alarms, .ac-alarms-empty',
      '[data-testid="dashboard-events"] .ant-card-head',
      '[data-testid="dashboard-events"] .ant-list-item, [data-testid="dashboard-events"] .ant-empty',
    ]);
    for (const [selector, bottom] of Object.entries(edges))
      expect(bottom, selector).toBeLessThanOrEqual(FOLD.height);
    await screenshot(page, `console-dashboard-${language}`);
  });

  it('has host, socket and session figures that agree with each other and with the lists', async () => {
    const { page } = await suite.signedIn('admin', { language, ...FOLD });
    await page.locator('[data-testid="figure-hosts"]').waitFor({ timeout: 20_000 });
    const text = async (id: string) =>
      (await page.locator(`[data-testid="${id}"] .ant-statistic-content`).innerText()).replace(/\s+/g, '');
    const numbers = async (id: string) => (await text(id)).split('/').map(Number);
    const summary = await api<{
      Sockets: {
        Total: number;
        Idle: number;
        Occupied: number;
        Fault: number;
        Disabled: number;
        Offline: number;
      };
      Hosts: { Total: number; Online: number };
      OpenSessions: number;
    }>(page, '/api/GarageDashboard');
    const s = summary.Sockets;
    expect(await numbers('figure-sockets')).toEqual([s.Occupied, s.Total]);
    expect(await numbers('figure-idle-fault')).toEqual([s.Idle, s.Fault, s.Disabled, s.Offline]);
    expect(await numbers('figure-hosts')).toEqual([summary.Hosts.Online, summary.Hosts.Total]);
    expect(await numbers('figure-open-sessions')).toEqual([summary.OpenSessions]);
    // With each other: the groups make the total, "charging now" fits in the occupied sockets.
    expect(s.Idle + s.Occupied + s.Fault + s.Disabled + s.Offline).toBe(s.Total);
    expect(summary.OpenSessions).toBeLessThanOrEqual(s.Occupied);
    // With the lists: hosts online and sockets counted on the host list.
    const hosts = await api<{ Items: { Online: boolean; SocketCount: number }[]; Total: number }>(
      page,
      '/api/ChargeHost?PageIndex=1&PageSize=100',
    );
    expect(hosts.Total).toBe(summary.Hosts.Total);
    expect(hosts.Items.filter((h) => h.Online).length).toBe(summary.Hosts.Online);
    expect(hosts.Items.reduce((n, h) => n + h.SocketCount, 0)).toBe(s.Total);
    // Nothing in the e2e server drives a charge point (SIMULATOR=off): nothing is shown as live.
    expect(summary.Hosts.Online).toBe(0);
    expect(s.Occupied + s.Idle + s.Fault).toBe(0);
  });

  it('keeps the key columns of the wide tables in view beside their actions at 1440 px', async () => {
    const { page } = await suite.signedIn('admin', { language, ...FOLD });
    const screens: [path: string, name: string, keys: string[]][] = [
      [
        '/accesscontrol/deviceManagement',
        'devices',
        ['Name', 'Online', 'SyncState', 'LostRecords', 'Location', 'Disabled'],
      ],
      [
        '/Bicycle/chargeHost',
        'hosts',
        ['Name', 'LastSeenAt', 'SocketCount', 'Disabled', 'ChargingSystemType', 'Endpoint'],
      ],
    ];
    for (const [path, name, keys] of screens) {
      await goto(page, path);
      const table = page.locator('.app-main .ant-table-wrapper').filter({ visible: true }).first();
      await table.locator('.ant-table-row').first().waitFor({ timeout: 20_000 });
      await screenshot(page, `console-${name}-${language}`);
      const actions = await table.locator('th.ant-table-cell-fix-end').first().boundingBox();
      expect(actions, `${name}: actions column`).not.toBeNull();
      // The columns' order is the declaration's: each key column's header, whole, left of the actions.
      const headers = await table.locator('thead th').evaluateAll((ths) =>
        ths.map((th) => {
          const r = th.getBoundingClientRect();
          return {
            text: (th as HTMLElement).innerText.trim(),
            left: r.left,
            right: r.right,
            clipped: th.scrollWidth > th.clientWidth + 1,
          };
        }),
      );
      const cells = await table
        .locator('.ant-table-row')
        .first()
        .locator('td')
        .evaluateAll((tds) =>
          tds.map((td) => {
            const r = td.getBoundingClientRect();
            return { key: td.getAttribute('data-column') ?? '', left: r.left, right: r.right };
          }),
        );
      expect(cells.length, name).toBeGreaterThanOrEqual(keys.length);
      for (const h of headers.filter((x) => x.text && !x.text.includes(actionsTitle(language))))
        expect(h.right, `${name}: ${h.text} left of the actions`).toBeLessThanOrEqual(actions!.x + 1);
      expect(await table.locator('thead th').count(), name).toBeGreaterThanOrEqual(keys.length + 1);
      // No horizontal scrolling needed: the table fits its card.
      const fits = await table
        .locator('.ant-table-content, .ant-table-body')
        .first()
        .evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
      expect(fits, `${name}: no horizontal scroll`).toBe(true);
    }
  });
});

const actionsTitle = (language: 'zh' | 'en') => (language === 'zh' ? '操作' : 'Actions');

it('shows the operation log in Chinese, objects by name, without raw field identifiers', async () => {
  const { page } = await suite.signedIn('admin', { language: 'zh', ...FOLD });
  // Entries whose snapshots name nothing: a socket disabled and enabled again (only its status is recorded).
  const token = await sessionToken(page);
  const headers = { authorization: `Bearer ${token}`, 'x-area-id': '1' };
  const sockets = await api<{ Items: { Id: number; Disabled: boolean }[] }>(
    page,
    '/api/ChargeEquipment?PageIndex=1&PageSize=20',
  );
  const socket = sockets.Items.find((x) => !x.Disabled)!;
  for (const disabled of [true, false]) {
    const reply = await page.request.post(
      `/api/ChargeEquipment/SetStatus?Id=${socket.Id}&Disabled=${disabled}`,
      { headers },
    );
    expect(reply.status()).toBe(200);
  }
  await goto(page, '/systemconfig/auditlog');
  const table = page.locator('.app-main .ant-table-wrapper').filter({ visible: true }).first();
  await table.locator('.ant-table-row').first().waitFor({ timeout: 20_000 });
  const rows = await table.locator('.ant-table-row').allInnerTexts();
  expect(rows.length).toBeGreaterThan(0);
  // The socket's entries name it by its host and port ("充电插座 <host> <n> 号插座").
  expect(rows.filter((r) => /充电插座\s.+\s\d+ 号插座/.test(r)).length).toBeGreaterThanOrEqual(2);
  for (const row of rows) {
    // No identifier-like word (CamelCase field names, Granted/Removed…) and no bare "#8" for an object.
    expect(row, row).not.toMatch(/\b[A-Z][a-z]+[A-Z][A-Za-z]*\b/);
    expect(row, row).not.toMatch(/\b(Granted|Updated|Unchanged|Removed|SettledAt)\b/);
    expect(row, row).not.toMatch(/(^|\s)#\d+/);
  }
  await screenshot(page, 'console-audit-log-zh');
});

it('shows the authorisation list (its warning figures included) at AA contrast', async () => {
  const { page } = await suite.signedIn('admin', {
    language: 'zh',
    ...FOLD,
    at: '/accesscontrol/cardUserLinkChannel',
  });
  const table = page.locator('.app-main .ant-table-wrapper').filter({ visible: true }).first();
  await table.locator('.ant-table-row').first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1000);
  const result = await runAxe(page);
  const contrast = blocking({ screen: 'AuthorizationList', ...result }).filter(
    (n) => n.rule === 'color-contrast' && n.visible,
  );
  expect(contrast.map((n) => `${n.target} ${n.fgColor} on ${n.bgColor} ${n.contrastRatio}`)).toEqual([]);
  await screenshot(page, 'console-authorizations-zh');
});

it('puts the live figures first on a phone, the settings button clear of them', async () => {
  const { page } = await suite.signedIn('admin', { language: 'zh', width: 390, height: 844 });
  await page.locator('[data-testid="ac-figure-online"]').waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="dashboard-events"]').waitFor({ timeout: 30_000 });
  const top = async (selector: string) => (await page.locator(selector).first().boundingBox())!.y;
  const figures = await top('[data-testid="ac-figure-online"]');
  expect(figures).toBeLessThan(await top('[data-testid="dashboard-events"]'));
  expect(figures).toBeLessThan(await top('[data-testid="dashboard-area"]'));
  expect(figures).toBeLessThan(await top('.dashboard-quick-links'));
  // The access-control figures all fit the first screen.
  for (const figure of await page.locator('.ac-figure').all()) {
    const box = await figure.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y + box!.height).toBeLessThanOrEqual(844);
  }
  await screenshot(page, 'console-dashboard-phone-zh');
  // The settings button (a tab fixed at the right edge) overlaps no figure: each is scrolled into view, so
  // those below the first screen are measured where an operator sees them.
  const every = await page.locator('.ac-figure, .garage-figure').all();
  expect(every.length).toBeGreaterThan(5);
  for (const figure of every) {
    await figure.scrollIntoViewIfNeeded();
    const box = (await figure.boundingBox())!;
    const button = (await page.locator('[data-testid="settings-button"]').boundingBox())!;
    expect(box.y + box.height > 0 && box.y < 844).toBe(true);
    const overlaps =
      box.x < button.x + button.width &&
      button.x < box.x + box.width &&
      box.y < button.y + button.height &&
      button.y < box.y + box.height;
    expect(overlaps).toBe(false);
  }
});

it('flags serial numbers already registered in the registration preview, before saving', async () => {
  const { page } = await suite.signedIn('admin', { language: 'zh', ...FOLD });
  const registered = await api<{ Items: { SerialNumber: string }[] }>(
    page,
    '/api/DeviceRegistration?PageIndex=1&PageSize=1',
  );
  const serial = registered.Items[0]!.SerialNumber;
  await goto(page, '/accesscontrol/deviceRegistration');
  await page.locator('[data-testid="register-devices"]').first().click();
  const dialog = page.locator('.ant-modal').filter({ visible: true }).first();
  await dialog.locator('textarea').first().fill(`${serial},223999001`);
  const flag = dialog.locator('[data-testid="serial-duplicates"]');
  await flag.waitFor({ timeout: 15_000 });
  expect(await flag.innerText()).toContain(serial);
  expect(await flag.innerText()).not.toContain('223999001');
  await screenshot(page, 'console-registration-duplicates-zh');
});

it('edits the data of an area as a form, the time zone picked from the IANA zones', async () => {
  const { page } = await suite.signedIn('admin', { language: 'zh', ...FOLD });
  const before = await api<{ Custom: string | null; Name: string }>(page, '/api/AreaInfo/2');
  const custom = JSON.parse(before.Custom ?? '{}') as Record<string, unknown>;
  await goto(page, '/systemconfig/areatable');
  const table = page.locator('.app-main .ant-table-wrapper').filter({ visible: true }).first();
  await table.locator('.ant-table-row').first().waitFor({ timeout: 30_000 });
  // The list shows the data as words, not JSON.
  expect((await table.locator('.ant-table-row').allInnerTexts()).join('\n')).not.toContain('{"');
  await table.locator('.ant-table-row', { hasText: before.Name }).locator('[data-testid="row-edit"]').click();
  const dialog = page.locator('.ant-modal').filter({ visible: true }).first();
  await dialog.locator('#CustomAddress').waitFor();
  expect(await dialog.locator('#CustomAddress').inputValue()).toBe(String(custom.address ?? ''));
  await dialog.locator('#CustomTimeZone').click();
  await page.keyboard.type('Asia/Tokyo');
  await page.locator('.ant-select-item-option', { hasText: 'Asia/Tokyo' }).first().click();
  await screenshot(page, 'console-area-form-zh');
  await dialog.locator('button[type="submit"], .ant-btn-primary').last().click();
  await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
  const after = await api<{ Custom: string | null }>(page, '/api/AreaInfo/2');
  const saved = JSON.parse(after.Custom ?? '{}') as Record<string, unknown>;
  expect(saved).toEqual({ ...custom, timezone: 'Asia/Tokyo' });
});

it('keeps the host arrows of the socket grid beside the host on a phone', async () => {
  const { page } = await suite.signedIn('admin', {
    language: 'zh',
    width: 390,
    height: 844,
    at: '/Bicycle/chargeEquipment?view=grid',
  });
  const host = page.locator('[data-testid="grid-host"]').filter({ visible: true }).first();
  await host.waitFor({ timeout: 30_000 });
  const next = (await page
    .locator('[data-testid="grid-next-host"]')
    .filter({ visible: true })
    .first()
    .boundingBox())!;
  const select = (await host.boundingBox())!;
  expect(Math.abs(next.y + next.height / 2 - (select.y + select.height / 2))).toBeLessThan(4);
  expect(next.x + next.width).toBeLessThanOrEqual(390);
  await screenshot(page, 'console-socket-grid-phone-zh');
});

it('shows the chart titles whole in Spanish', async () => {
  const { page } = await suite.signedIn('admin', { language: 'es', ...FOLD });
  const charts = page.locator('[data-testid="garage-charts"]');
  await page.locator('[data-testid="garage-panel"]').scrollIntoViewIfNeeded();
  await charts.waitFor({ timeout: 30_000 });
  await charts.scrollIntoViewIfNeeded();
  const cut = await charts
    .locator('.ant-card-head-title')
    .evaluateAll((titles) =>
      titles.filter((t) => t.scrollWidth > t.clientWidth + 1).map((t) => (t as HTMLElement).innerText),
    );
  expect(cut).toEqual([]);
  await page.waitForTimeout(800);
  await screenshot(page, 'console-charts-es');
});
