import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { eventually, goto, screenshot, sessionToken, toasts, untranslatedKeys } from './support/app.ts';
import { useSuite } from './support/suite.ts';

/**
 * Access rules on the screens (issue 22) against the e2e server running main.ts with the demo's simulated
 * controllers: a holiday and a time profile made on their screens, a grant with the profile, the controller's
 * rules converging on device management, a forced door and its alarm live on the door monitor, acknowledged with
 * a note; screenshots in en and zh.
 */
const suite = useSuite({ devices: true });

function listRows(page: Page): Locator {
  return page
    .locator('.list-page > .ant-card-body > .ant-table-wrapper .ant-table-row')
    .filter({ visible: true });
}

async function waitForToast(page: Page, text: string | RegExp): Promise<void> {
  await eventually(
    async () =>
      (await toasts(page)).some((t) => (typeof text === 'string' ? t.includes(text) : text.test(t))),
    15_000,
  ).toBe(true);
}

async function apiOf(page: Page) {
  const headers = { authorization: `Bearer ${await sessionToken(page)}`, 'content-type': 'application/json' };
  const info = (await (await fetch(`${suite.server.url}/api/AppUser/Info`, { headers })).json()) as {
    data: { AreaInfos: { Id: number }[] };
  };
  const area = String(info.data.AreaInfos[0]!.Id);
  return async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${suite.server.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...headers, 'x-area-id': area },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const reply = (await response.json()) as { msg: string; data: T };
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${reply.msg}`);
    return reply.data;
  };
}

async function simulator<T = unknown>(path: string, body?: unknown): Promise<T> {
  const { wg } = await suite.control();
  const response = await fetch(`${wg}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function typeDate(page: Page, field: string, date: string): Promise<void> {
  await page.locator(`.ant-modal:visible [data-testid="field-${field}"]`).click();
  await page.keyboard.type(date);
  await page.keyboard.press('Enter');
}

/** Ticks one channel of one device in the grant dialog's channel tree (channel names repeat across devices). */
async function tickChannel(page: Page, deviceName: string, channelName: string): Promise<void> {
  const nodes = page.locator(
    '.ant-modal:visible .ac-channel-tree .ant-tree-treenode:not([aria-hidden="true"])',
  );
  await nodes.first().waitFor();
  const titles = (await nodes.locator('.ant-tree-title').allInnerTexts()).map((t) => t.trim());
  const deviceAt = titles.indexOf(deviceName);
  expect(deviceAt).toBeGreaterThanOrEqual(0);
  const offset = titles.slice(deviceAt + 1).indexOf(channelName);
  expect(offset).toBeGreaterThanOrEqual(0);
  await nodes
    .nth(deviceAt + 1 + offset)
    .locator('.ant-tree-checkbox')
    .click();
}

interface Device {
  Id: number;
  Name: string;
  SerialNumber: string;
  Protocol: number;
  Type: number;
  Disabled: boolean;
  Online: boolean | null;
}

describe('access rules on the screens', () => {
  it('a holiday and a profile, a grant with it, the rules converge; a forced door raises an alarm live, acknowledged', async () => {
    const { page } = await suite.signedIn('admin', { language: 'en', width: 1600 });
    const api = await apiOf(page);

    // A holiday, on its screen.
    await goto(page, '/accesscontrol/holiday');
    await page.locator('[data-testid="list-create"]').filter({ visible: true }).click();
    await page.locator('.ant-modal:visible [data-testid="field-Name"]').fill('Labour Day');
    await typeDate(page, 'StartDate', '2027-05-03');
    await typeDate(page, 'EndDate', '2027-05-03');
    await page.locator('[data-testid="dialog-ok"]').click();
    await listRows(page).filter({ hasText: 'Labour Day' }).first().waitFor();

    // A time profile not on holidays, on its screen (weekdays and segments as the form opens).
    await goto(page, '/accesscontrol/timeProfile');
    await page.locator('[data-testid="list-create"]').filter({ visible: true }).click();
    await page.locator('.ant-modal:visible [data-testid="field-Name"]').fill('Office hours');
    await typeDate(page, 'StartDate', '2027-01-01');
    await typeDate(page, 'EndDate', '2027-12-31');
    await page.locator('.ant-modal:visible [data-testid="field-NotOnHolidays"]').click();
    await page.locator('[data-testid="dialog-ok"]').click();
    const profileRow = listRows(page).filter({ hasText: 'Office hours' }).first();
    await profileRow.waitFor();
    // Split around the holiday: two controller profiles.
    expect(await profileRow.innerText()).toContain('08:00-18:00');
    await screenshot(page, 'access-rules-time-profiles-en');

    // A grant with the profile, on the authorisation screen: a WG controller that answers, a holder with a card.
    let devices: Device[] = [];
    await eventually(async () => {
      const list = await api<{ Items: Device[] }>('/api/AccessControlDevice?PageIndex=1&PageSize=100');
      devices = list.Items.filter(
        (d) => d.Protocol === 0 && !d.Disabled && d.Online === true && d.Type === 2,
      );
      return devices.length;
    }, 60_000).toBeGreaterThan(0);
    const device = devices[0]!;
    const channels = await api<{ Items: { Id: number; Name: string; DoorNumber: number }[] }>(
      `/api/AccessControlChannel?DeviceId=${device.Id}&PageIndex=1&PageSize=50`,
    );
    const channel = channels.Items.find((c) => c.DoorNumber === 1)!;
    const holders = await api<{
      Items: { Id: number; Name: string; Cards: { CardNumber: string }[]; Expired: boolean }[];
    }>('/api/CardUser?Disabled=false&PageIndex=1&PageSize=50');
    const holder = holders.Items.find((h) => h.Cards.length > 0 && !h.Expired)!;
    // The grant dialog: the holder (found by card number), the channel, and the time profile.
    await goto(page, '/accesscontrol/cardUserLinkChannel');
    await listRows(page).first().waitFor();
    await page.locator('[data-testid="grant-one"]').click();
    await page.locator('.ant-modal:visible [data-testid="grant-holder"]').click();
    await page.keyboard.type(holder.Cards[0]!.CardNumber);
    const option = page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: holder.Name });
    await option.first().waitFor();
    // Not forced: a forced click does not wait for the dropdown to be placed, and a popup opens off screen
    // until it is aligned ('Element is outside of the viewport' in CI).
    await option.first().click();
    await tickChannel(page, device.Name, channel.Name);
    // The profile as a user picks it in a searchable select: typed, and chosen with Enter (the dropdown
    // under the dialog's last field need not be on screen).
    const profileSelect = page.locator('.ant-modal:visible [data-testid="grant-profile"]');
    await profileSelect.scrollIntoViewIfNeeded();
    await profileSelect.click();
    await page.keyboard.type('Office hours');
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: 'Office hours' })
      .first()
      .waitFor();
    await page.keyboard.press('Enter');
    await eventually(() => profileSelect.innerText()).toContain('Office hours');
    await page.locator('[data-testid="grant-ok"]').click();
    await waitForToast(page, /authorisations added/);
    await eventually(
      () => listRows(page).filter({ hasText: holder.Name }).filter({ hasText: 'Office hours' }).count(),
      15_000,
    ).toBeGreaterThan(0);

    // The controller's rules converge: the device list's rules column turns "in sync".
    await goto(page, '/accesscontrol/deviceManagement');
    await page
      .locator(`[data-testid="rules-${device.Id}"][data-state="done"]`)
      .filter({ visible: true })
      .waitFor({
        timeout: 60_000,
      });
    const rules = await simulator<{ profiles: { id: number }[] }>(
      `/controllers/${device.SerialNumber}/rules`,
    );
    expect(rules.profiles.length).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'access-rules-devices-en');

    // The door monitor: a forced door shows as forced, its alarm pops up and waits for an operator.
    await goto(page, '/accesscontrol/doorMonitor');
    await page.locator('[data-testid="door-grid"]').waitFor();
    await simulator('/force', { serial: Number(device.SerialNumber), door: 1 });
    await page.locator(`[data-testid="door-${device.Id}-1"][data-state="5"]`).waitFor({ timeout: 30_000 });
    // The forced alarm of this door, by its id: a forced door left open past its held-open limit raises a
    // held-open alarm too, which this acknowledgement does not close, and the demo's simulated traffic can force
    // another door of the same controller meanwhile (CI, 30 Nov: door 2's forced alarm stayed in the list).
    let forcedId = 0;
    await eventually(async () => {
      const open = await api<{ Items: { Id: number; DoorNumber: number }[] }>(
        `/api/DoorAlarm?DeviceId=${device.Id}&Kind=1&State=0&PageIndex=1&PageSize=20`,
      );
      forcedId = open.Items.find((a) => a.DoorNumber === 1)?.Id ?? 0;
      return forcedId;
    }, 30_000).toBeGreaterThan(0);
    const alarmRow = page.locator(`[data-testid="alarm-table"] .ant-table-row[data-row-key="${forcedId}"]`);
    expect(await alarmRow.innerText({ timeout: 30_000 })).toContain('Door forced open');
    // The alarm's notice stays until it is acknowledged (the list may show the alarm first: a record's event
    // refetches it before the door watch raises AlarmRaised).
    const notice = page
      .locator('.ant-notification-notice')
      .filter({ hasText: 'Door forced open' })
      .filter({ hasText: device.Name });
    await notice.first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'access-rules-door-monitor-en');
    expect(await untranslatedKeys(page)).toEqual([]);

    await alarmRow.locator('[data-testid^="ack-"]').click();
    await page.locator('[data-testid="ack-note"]').fill('Checked on site: door wedged open by a delivery');
    await page.locator('[data-testid="ack-ok"]').click();
    await waitForToast(page, 'Alarm acknowledged');
    await eventually(() => alarmRow.count(), 10_000).toBe(0);
    await eventually(() => notice.count(), 10_000).toBe(0);
    const alarms = await api<{ Items: { Id: number; State: number; Note: string | null }[] }>(
      '/api/DoorAlarm?PageIndex=1&PageSize=20',
    );
    expect(alarms.Items.find((a) => a.Id === forcedId && a.State === 1)?.Note).toBe(
      'Checked on site: door wedged open by a delivery',
    );
    // The alarm's history, with who acknowledged it and the note (exportable from the list).
    await goto(page, '/accesscontrol/doorAlarm');
    const history = listRows(page).filter({ hasText: 'Checked on site' }).first();
    await history.waitFor();
    expect(await history.innerText()).toContain('Acknowledged');
    await screenshot(page, 'access-rules-door-alarms-en');
    expect(await untranslatedKeys(page)).toEqual([]);
  }, 240_000);

  it('the screens in Chinese', async () => {
    const { page } = await suite.signedIn('admin', {
      language: 'zh',
      width: 1600,
      at: '/accesscontrol/doorMonitor',
    });
    await page.locator('[data-testid="door-grid"]').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);
    await screenshot(page, 'access-rules-door-monitor-zh');
    expect(await untranslatedKeys(page)).toEqual([]);
    await goto(page, '/accesscontrol/timeProfile');
    await listRows(page).first().waitFor();
    await screenshot(page, 'access-rules-time-profiles-zh');
    expect(await untranslatedKeys(page)).toEqual([]);
  }, 120_000);
});
