import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { eventually, goto, screenshot, sessionToken, toasts, untranslatedKeys } from './support/app.ts';
import { useSuite } from './support/suite.ts';

/**
 * Device management, swipe records and channel door actions against the e2e server, which runs main.ts:
 * the WG gateway and the demo's simulated controllers (loopback), so WG devices come online, swipes arrive
 * live and door commands are carried out; the demo's third-party gates are refused with the server's message.
 */
const suite = useSuite({ devices: true });

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

async function waitForToast(page: Page, text: string | RegExp, ms = 15_000): Promise<void> {
  await eventually(
    async () =>
      (await toasts(page)).some((t) => (typeof text === 'string' ? t.includes(text) : text.test(t))),
    ms,
  ).toBe(true);
}

interface Device {
  Id: number;
  Name: string;
  SerialNumber: string;
  Protocol: number;
  Type: number;
  Disabled: boolean;
  Online: boolean | null;
  SyncState: string | null;
}
interface Holder {
  Id: number;
  Name: string;
  Disabled: boolean;
  Expired: boolean;
  ValidFrom: string;
  Cards: { CardNumber: string; CardValue: number }[];
}

/** Calls the API as the page's user in the area the app opened on (its first). */
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

/** The demo simulator's control API (packages/wg-simulator/src/http.ts). */
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

/** The area's WG controllers that answer now (the gateway finds them shortly after start). */
async function onlineControllers(api: Awaited<ReturnType<typeof apiOf>>): Promise<Device[]> {
  let devices: Device[] = [];
  await eventually(async () => {
    const list = await api<{ Items: Device[] }>('/api/AccessControlDevice?PageIndex=1&PageSize=100');
    devices = list.Items.filter((d) => d.Protocol === 0 && !d.Disabled && d.Online === true);
    return devices.length;
  }, 60_000).toBeGreaterThan(1);
  return devices;
}

/** Ticks one channel of one device in the grant dialog's channel tree (channel names repeat across devices). */
async function tickChannel(page: Page, deviceName: string, channelName: string): Promise<void> {
  // Not the tree's hidden measuring node (aria-hidden), which would shift every index below.
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

/** A row of the authorisation screen's per-device sync panel. */
function syncCell(page: Page, deviceId: number): Locator {
  return page.locator(`[data-testid="sync-${deviceId}"]`).filter({ visible: true });
}

describe('WG controllers on the screens', () => {
  it('device management: online state, firmware, drift, set time, sync now, none of them on a non-WG device', async () => {
    const { page } = await suite.signedIn('admin', { language: 'en', at: '/accesscontrol/deviceManagement' });
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

    // A third-party controller (protocol Other, which the row's expanded detail shows since the protocol
    // column yields at 1440 px) is not offered what only the WG gateway can do.
    const foreign = listRows(page)
      .filter({ hasNot: page.locator('[data-testid="row-syncNow"]') })
      .first();
    await foreign.waitFor();
    await foreign.locator('.ant-table-row-expand-icon').click();
    await eventually(() => page.locator('.ant-table-expanded-row:visible').first().innerText()).toContain(
      'Other',
    );
    expect(await foreign.locator('[data-testid="row-channels"]').count()).toBe(1);
    expect(await foreign.locator('[data-testid="row-setTime"], [data-testid="row-syncNow"]').count()).toBe(0);
    expect(await untranslatedKeys(page)).toEqual([]);
  });

  it('channel management: open a door, then the remote-open record appears on the open swipe list', async () => {
    const { page } = await suite.signedIn('admin', {
      language: 'en',
      at: '/accesscontrol/doorOpeningRecords',
    });
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
    // The previous test's "sync now" may still be writing that controller's cards and rules: a request waits
    // for the one in flight to the same controller, so the open can take longer than 15 s on a loaded machine
    // (known: an operator's command does not yet go before a running sync pass; docs/devices.md).
    await waitForToast(page, /Door \d opened/, 45_000);

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

  it('grant access: the status reaches "issue succeeded" live; a swipe then appears on the open swipe list', async () => {
    const { page } = await suite.signedIn('admin', { language: 'en', width: 1600 });
    const api = await apiOf(page);
    const device = (await onlineControllers(api)).find((d) => d.Type === 2)!;
    expect(device).toBeDefined();
    const channels = await api<{
      Items: { Id: number; Name: string; DoorNumber: number; Direction: number }[];
    }>(`/api/AccessControlChannel?DeviceId=${device.Id}&PageIndex=1&PageSize=50`);
    const channel = channels.Items.find((c) => c.DoorNumber === 1 && c.Direction === 1)!;
    // A holder with a card, valid now, not yet authorised on that channel.
    const holders = await api<{ Items: Holder[] }>('/api/CardUser?Disabled=false&PageIndex=1&PageSize=100');
    let holder: Holder | undefined;
    for (const h of holders.Items) {
      if (h.Cards.length === 0 || h.Expired || Date.parse(h.ValidFrom) > Date.now()) continue;
      const links = await api<{ Items: { Revoked: boolean }[] }>(
        `/api/CardUserLinkChannel?CardUserId=${h.Id}&ChannelId=${channel.Id}&PageIndex=1&PageSize=10`,
      );
      if (links.Items.every((l) => l.Revoked)) {
        holder = h;
        break;
      }
    }
    if (!holder) throw new Error('no holder to grant');
    const card = holder.Cards[0]!;

    // The swipe list is opened first and stays open (a kept tab) while access is granted elsewhere.
    await goto(page, '/accesscontrol/doorOpeningRecords');
    await listRows(page).first().waitFor();
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    // Only this card's records, counted by the list's total: the simulated controllers keep swiping, so the
    // rows of a whole first page move on under any count of them.
    await page.locator('[data-testid="filter-CardNumber"]').fill(card.CardNumber);
    await Promise.all([
      page.waitForResponse(
        (r) => r.url().includes('/api/DoorOpeningRecord?') && r.url().includes('CardNumber='),
      ),
      page.locator('[data-testid="list-search"]').click(),
    ]);
    const holderSwipes = async () => {
      // antd draws no pager for an empty list.
      const pager = page.locator('.list-page .ant-pagination-total-text').filter({ visible: true });
      if ((await pager.count()) === 0) return 0;
      return Number(/\d+/.exec((await pager.first().innerText()).replace(/,/g, ''))?.[0] ?? 0);
    };
    await page.waitForTimeout(300);
    const swipesBefore = await holderSwipes();

    await goto(page, '/accesscontrol/cardUserLinkChannel');
    await listRows(page).first().waitFor();
    await page.locator('[data-testid="grant-one"]').click();
    await page.locator('.ant-modal:visible [data-testid="grant-holder"]').click();
    await page.keyboard.type(card.CardNumber);
    const option = page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: holder.Name });
    await option.first().waitFor();
    await option.first().dispatchEvent('click'); // delivered where the option is, though the dropdown may still be moving into place
    await tickChannel(page, device.Name, channel.Name);
    await page.locator('[data-testid="grant-ok"]').click();
    await waitForToast(page, /1 authorisations added/);

    // The new authorisation waits for the controller, then the gateway's sync issues it: the tag turns to
    // "issue succeeded" on the open list, without a reload.
    const granted = listRows(page).filter({ hasText: holder.Name }).filter({ hasText: channel.Name }).first();
    await granted.waitFor();
    await granted.locator('[data-issue-status="3"]').waitFor({ timeout: 30_000 });
    expect(await granted.innerText()).toContain('Issue succeeded');
    // The controller's card store now holds the card, with door 1.
    const cards = await simulator<({ card: number; doors: number[] } | null)[]>(
      `/controllers/${device.SerialNumber}/cards`,
    );
    expect(cards.find((c) => c?.card === card.CardValue)?.doors[0]).toBe(1);

    // The holder swipes at the door's reader: the controller opens, and the record reaches the swipe list
    // that stayed open, through the hub.
    const record = await simulator<{ granted: boolean; reason: number }>('/swipe', {
      serial: Number(device.SerialNumber),
      card: card.CardValue,
      door: 1,
      direction: 1,
    });
    expect(record).toMatchObject({ granted: true, reason: 1 });
    await goto(page, '/accesscontrol/doorOpeningRecords');
    await eventually(holderSwipes, 30_000).toBeGreaterThan(swipesBefore);
    const newest = listRows(page).filter({ hasText: holder.Name }).first();
    expect(await newest.innerText()).toContain(card.CardNumber);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );
    expect(await untranslatedKeys(page)).toEqual([]);
  });

  it('dashboard: a forced door shows as an open alarm at once, and the alarm ends when the door reports closed', async () => {
    const { page } = await suite.signedIn('admin', { language: 'en' });
    const api = await apiOf(page);
    const device = (await onlineControllers(api))[0]!;
    await goto(page, '/dashboard');
    const panel = page.locator('[data-testid="ac-panel"]');
    await panel.locator('[data-testid="ac-figure-online"]').waitFor();
    const door = panel.locator(`[data-alarm-device="${device.Id}"][data-alarm-door="1"]`);
    // A door of the demo may be in alarm already (the demo forces doors now and then): close it first.
    await simulator('/door', { serial: Number(device.SerialNumber), door: 1, open: false });
    await eventually(() => door.count(), 30_000).toBe(0);

    await simulator('/force', { serial: Number(device.SerialNumber), door: 1 });
    await door.waitFor({ timeout: 30_000 });
    expect(await door.innerText()).toContain('Door forced open');
    expect(
      Number(
        await panel.locator('[data-testid="ac-figure-alarms"] .ant-statistic-content-value').innerText(),
      ),
    ).toBeGreaterThan(0);

    await simulator('/door', { serial: Number(device.SerialNumber), door: 1, open: false });
    await eventually(() => door.count(), 30_000).toBe(0);
    expect(await untranslatedKeys(page)).toEqual([]);
  });
});

describe.each(['zh', 'en'] as const)('screenshots in %s', (language) => {
  it('device management and swipe records with door events', async () => {
    const { page } = await suite.signedIn('admin', { language, at: '/accesscontrol/deviceManagement' });
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

  it('the sync panel: a controller syncing with progress, another failing with its reason', async () => {
    const { page } = await suite.signedIn('admin', { language, width: 1600, height: 900 });
    const api = await apiOf(page);
    const [busy, away] = await onlineControllers(api);
    // Enough cards on the busy controller for a pass to take a while: every holder of the area on its doors.
    const channels = await api<{ Items: { Id: number }[] }>(
      `/api/AccessControlChannel?DeviceId=${busy!.Id}&PageIndex=1&PageSize=50`,
    );
    const departments = await api<{ Id: number }[]>('/api/Options/Departments');
    for (const department of departments)
      await api('/api/CardUserLinkChannel/BatchGrant', {
        DepartmentId: department.Id,
        ChannelIds: channels.Items.map((c) => c.Id),
      });
    await goto(page, '/accesscontrol/cardUserLinkChannel');
    await syncCell(page, busy!.Id).waitFor();
    const syncNow = async (deviceId: number) => {
      // Hidden while a pass runs (the gateway may have started one on its own): then there is nothing to ask.
      const button = page.locator(`[data-testid="sync-now-${deviceId}"]`);
      if (await button.isVisible()) await button.click();
    };
    try {
      // The other controller stops answering; "sync now" shows why it failed and when it tries again.
      await simulator('/offline', { offline: true, serial: Number(away!.SerialNumber) });
      await syncCell(page, away!.Id).scrollIntoViewIfNeeded();
      await syncNow(away!.Id);
      await syncCell(page, away!.Id).locator('[data-sync="failed"]').waitFor({ timeout: 30_000 });
      // A lossy line (one datagram in ten lost) makes the busy controller's pass slow enough to watch.
      await simulator('/drop', { rate: 0.1 });
      await syncCell(page, busy!.Id).scrollIntoViewIfNeeded();
      await syncNow(busy!.Id);
      // Caught with its progress counted (the hub reports it every half second).
      await syncCell(page, busy!.Id)
        .locator('[data-sync="running"]')
        .filter({ hasText: /[1-9]\d*\/\d+/ })
        .waitFor({ timeout: 30_000 });
      await page.mouse.move(640, 25);
      expect(await untranslatedKeys(page)).toEqual([]);
      await screenshot(page, `access-control-sync-panel-${language}`);
      expect(await syncCell(page, away!.Id).locator('[data-sync-error]').innerText()).not.toBe('');
    } finally {
      await simulator('/drop', { rate: 0 });
      await simulator('/offline', { offline: false, serial: Number(away!.SerialNumber) });
    }
    // Both come back: the busy pass completes and the other controller is synced again on request.
    await syncCell(page, busy!.Id).locator('[data-sync="done"]').waitFor({ timeout: 60_000 });
    await eventually(async () => {
      const list = await api<{ Items: Device[] }>('/api/AccessControlDevice?PageIndex=1&PageSize=100');
      return list.Items.find((d) => d.Id === away!.Id)?.Online;
    }, 60_000).toBe(true);
    await syncNow(away!.Id);
    await syncCell(page, away!.Id).locator('[data-sync="done"]').waitFor({ timeout: 30_000 });
  });

  it('the dashboard overview with a door in alarm', async () => {
    const { page } = await suite.signedIn('admin', { language, width: 1366, height: 900 });
    const api = await apiOf(page);
    const [device] = await onlineControllers(api);
    await simulator('/force', { serial: Number(device!.SerialNumber), door: 1 });
    await goto(page, '/dashboard');
    const panel = page.locator('[data-testid="ac-panel"]');
    await panel.locator(`[data-alarm-device="${device!.Id}"]`).first().waitFor({ timeout: 30_000 });
    await panel.scrollIntoViewIfNeeded();
    await page.mouse.move(640, 25);
    expect(await untranslatedKeys(page)).toEqual([]);
    await screenshot(page, `access-control-dashboard-${language}`);
    await simulator('/door', { serial: Number(device!.SerialNumber), door: 1, open: false });
  });
});
