import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { eventually, goto, screenshot, toasts, untranslatedKeys } from './support/app.ts';
import { useSuite } from './support/suite.ts';
import { row, rowAction, rows, search } from './garage-helpers.ts';
import {
  api,
  connectors,
  freeConnectors,
  idleCards,
  ocppHost,
  openGrid,
  simulator,
  startSession,
} from './support/charge-points.ts';

/**
 * The chargers on the screens, against the e2e server running main.ts with the demo's simulated OCPP charge
 * points (packages/server/src/demo/charge-points.ts) and their control API: a session started at a charge
 * point shows on the socket grid live; a forced power-off from the grid answers with the charger's answer
 * ("sent, not confirmed"), turns "power cut" live when the charger's stop arrives, and ends the session and its
 * order exactly once; a charge point that goes away turns its sockets "unknown /
 * offline" live, and a power-off there is recorded, not sent, with the reason; a session started for a card
 * from the grid; a host restarted; a new OCPP password shown once.
 *
 * The demo's riders plug bikes in and out every few seconds on their own; they only ever unplug their own
 * bikes, so the connectors this file plugs in (free ones, through the control API) and the sessions it
 * starts (with a card it chose, found by that card) are left alone.
 */
const suite = useSuite({ devices: true });

type Lang = 'zh' | 'en';

const WORDS = {
  zh: {
    connected: '已连接',
    notConnected: '未连接',
    offlineState: '未知/离线',
    notSent: '已记录，未下发：主机未连接。充电仍在进行，订单未结算。',
    cut: (order: string) => `已强制断电，订单 ${order} 结算`,
    awaiting: '充电桩确认后，该次充电结束并结算订单',
    reason: 'E2E 电池发热',
  },
  en: {
    connected: 'Connected',
    notConnected: 'Not connected',
    offlineState: 'Unknown / offline',
    notSent:
      'Recorded, not sent: the host is not connected. The session is still running and its order is not settled.',
    cut: (order: string) => `Power cut; order ${order} settled at`,
    awaiting: 'The session ends and its order is settled once the charger confirms',
    reason: 'E2E battery overheating',
  },
} as const;

function tile(page: Page, port: number): Locator {
  return page.locator(`[data-testid="socket-tile"][data-port="${port}"]`);
}

async function powerOff(page: Page, port: number, reason: string): Promise<void> {
  await tile(page, port).locator('[data-testid="socket-power-off"]').click();
  await page.locator('[data-testid="power-off-reason"]').fill(reason);
  await page.locator('[data-testid="power-off-ok"]').click();
}

async function shoot(page: Page, name: string, language: Lang): Promise<void> {
  expect(await untranslatedKeys(page), name).toEqual([]);
  await screenshot(page, `garage-devices-${name}-${language}`);
}

describe.each([
  ['zh', 0],
  ['en', 1],
] as const)('charge points on the screens (%s)', (language, hostIndex) => {
  const words = WORDS[language];

  it('a session shows on the grid live; a power-off answers "sent", turns "power cut" live on the charger\'s stop; ended and settled exactly once', async () => {
    const { ocpp } = await suite.control();
    const { page } = await suite.signedIn('bikeuser', { language, width: 1440, height: 900 });
    const host = await ocppHost(page, hostIndex);
    const candidates = (await idleCards(page, ocpp)).slice(hostIndex * 8);
    await openGrid(page, host);
    const presence = page.locator('[data-testid="grid-host-summary"] [data-testid="host-online"]');
    await eventually(() => presence.innerText()).toBe(words.connected);
    // Counted only where a report is live: no socket of a connected host reads "unknown".
    await expect(page.locator('[data-testid="socket-tile"][data-state="255"]').count()).resolves.toBe(0);

    // The rider plugs in and swipes at the charge point; the tile follows without a reload.
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    const { port, recordId, card } = await startSession(page, ocpp, host.SerialNumber, candidates);
    const socket = tile(page, port);
    await eventually(() => socket.getAttribute('data-card'), 15_000).toBe(card);
    await eventually(() => socket.getAttribute('data-state')).toMatch(/^(1|5)$/);
    expect(navigations).toEqual([]);
    await shoot(page, 'grid-live', language);

    // The charger's meter values reach the tile (every 60 s in the demo, which charges in real time: 400 W
    // for a minute moves the energy shown by at least 0.01 kWh).
    await simulator(ocpp, `/points/${host.SerialNumber}/connectors/${port}/power`, { watts: 400 });
    const energy = await socket.innerText();
    await eventually(() => socket.innerText(), 100_000).not.toBe(energy);

    // The charger answers RemoteStopTransaction at once and sends its StopTransaction a moment later (held
    // here, so the order of the two is the slow charger's): the dialog shows the answer, "sent, not
    // confirmed", and turns to "power cut" by itself when the stop arrives, without a reload.
    await simulator(ocpp, `/points/${host.SerialNumber}/hold-remote-stop`, { hold: true });
    await powerOff(page, port, words.reason);
    const outcome = page.locator('[data-testid="power-off-outcome"]');
    await eventually(() => outcome.getAttribute('data-cut'), 20_000).toBe('false');
    expect(await outcome.innerText()).toContain(words.awaiting);
    await shoot(page, 'power-off-sent', language);
    await simulator(ocpp, `/points/${host.SerialNumber}/hold-remote-stop`, { hold: false });
    await simulator(ocpp, `/points/${host.SerialNumber}/connectors/${port}/stop`);
    const orderNo = (
      await api<{ Items: { OrderNo: string }[] }>(page, 'GET', `/api/ChargeOrder?ChargeRecordId=${recordId}`)
    ).data.Items[0]!.OrderNo;
    await eventually(() => outcome.getAttribute('data-cut'), 20_000).toBe('true');
    expect(await outcome.innerText()).toContain(words.cut(orderNo));
    await eventually(() => toasts(page), 20_000).toEqual(
      expect.arrayContaining([expect.stringContaining(words.cut(orderNo))]),
    );
    expect(navigations).toEqual([]);
    await shoot(page, 'power-off-confirmed', language);
    await page.locator('[data-testid="power-off-close"]').click();
    await page.locator('.ant-message-notice .anticon-check-circle').first().waitFor();
    // The charger stopped: the bike is still plugged in, the session is gone from the tile.
    await eventually(() => socket.getAttribute('data-card')).toBeNull();
    // The charger ends the transaction first and reports the connector's new status after it (Finishing): until
    // that report the tile honestly keeps the last status it had, so the state is awaited, not read at once.
    await eventually(() => socket.getAttribute('data-state')).not.toMatch(/^(1|5|255)$/);
    await shoot(page, 'power-cut', language);

    // The session and its order ended once, as a forced power-off; the record says "power cut".
    const order = await api<{ Items: Record<string, unknown>[] }>(
      page,
      'GET',
      `/api/ChargeOrder?ChargeRecordId=${recordId}`,
    );
    expect(order.data.Items).toHaveLength(1);
    expect(order.data.Items[0]).toMatchObject({ Open: false, StopReason: 3, Forced: true, Estimated: false });
    const records = await api<{ Items: Record<string, unknown>[] }>(
      page,
      'GET',
      `/api/ForcedOutageRecord?ChargeEquipmentId=${(await api<{ Items: { Id: number; PortNumber: number }[] }>(page, 'GET', `/api/ChargeEquipment?ChargeHostId=${host.Id}&PageSize=64`)).data.Items.find((s) => s.PortNumber === port)!.Id}`,
    );
    expect(records.data.Items[0]).toMatchObject({
      Result: 1,
      ResultReason: null,
      ChargeRecordId: recordId,
      AmountCents: order.data.Items[0]!.AmountCents,
    });
    // A second power-off of that session is refused, and nothing is settled again.
    const again = await api(page, 'POST', '/api/ChargeEquipment/ForcedPowerOff', {
      ChargeEquipmentId: records.data.Items[0]!.ChargeEquipmentId,
      ChargeRecordId: recordId,
      Reason: 'again',
    });
    expect(again.code).toBe(409);
    const admin = await suite.signedIn('admin', { language });
    const settled = await api<{ Items: { EntityId: string | null }[] }>(
      admin.page,
      'GET',
      '/api/AuditLog?Entity=ChargeOrder&Action=settle&PageSize=100',
    );
    const orderId = order.data.Items[0]!.Id as number;
    // The operation log keeps object ids as text (an object may be named by a code as well as a number).
    expect(settled.data.Items.filter((a) => a.EntityId === String(orderId))).toHaveLength(1);

    // The screens agree: the order is forced and settled, the power-off record says "power cut".
    await goto(page, '/Bicycle/chargeorderRecords');
    await rows(page).first().waitFor();
    await search(page, 'OrderNo', orderNo);
    await eventually(() => row(page, orderNo).count(), 30_000).toBe(1);
    await expect(row(page, orderNo).locator('[data-testid="order-forced"]').count()).resolves.toBe(1);
    await goto(page, '/Bicycle/forcedOutageRecords');
    const cutRecord = rows(page).filter({ hasText: orderNo });
    await eventually(() => cutRecord.count(), 20_000).toBe(1);
    expect(await cutRecord.locator('[data-testid="outage-result"]').getAttribute('data-result')).toBe('1');
    await simulator(ocpp, `/points/${host.SerialNumber}/connectors/${port}/unplug`);
  }, 240_000);

  it('a charge point that goes away: its sockets read unknown live, a power-off is not sent and says why', async () => {
    const { ocpp } = await suite.control();
    const { page } = await suite.signedIn('bikeuser', { language, width: 1440, height: 900 });
    const host = await ocppHost(page, hostIndex);
    const candidates = (await idleCards(page, ocpp)).slice(hostIndex * 8 + 4);
    await openGrid(page, host);
    const { port, recordId, card } = await startSession(page, ocpp, host.SerialNumber, candidates);
    const socket = tile(page, port);
    await eventually(() => socket.getAttribute('data-card'), 15_000).toBe(card);

    await simulator(ocpp, `/points/${host.SerialNumber}/offline`);
    // Live: the host reads "not connected" and every socket "unknown / offline"; the session is still there.
    const presence = page.locator('[data-testid="grid-host-summary"] [data-testid="host-online"]');
    await eventually(() => presence.innerText(), 15_000).toBe(words.notConnected);
    await eventually(() =>
      page.locator('[data-testid="socket-tile"]:not([data-state="255"]):not([data-state="12"])').count(),
    ).toBe(0);
    expect(await socket.locator('[data-testid="socket-state"]').innerText()).toBe(words.offlineState);
    expect(await socket.getAttribute('data-card')).toBe(card);
    await shoot(page, 'grid-offline', language);

    await powerOff(page, port, words.reason);
    const outcome = page.locator('[data-testid="power-off-outcome"]');
    await outcome.waitFor({ timeout: 20_000 });
    expect(await outcome.getAttribute('data-cut')).toBe('false');
    expect(await outcome.innerText()).toBe(words.notSent);
    expect((await toasts(page)).join(' ')).toContain(words.notSent);
    await shoot(page, 'power-off-not-sent', language);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(500);
    await shoot(page, 'power-off-not-sent-390', language);
    await page.locator('[data-testid="power-off-close"]').click();
    await page.setViewportSize({ width: 1440, height: 900 });

    // Nothing pretended: the session runs on, its order open, the record says not sent with the reason.
    const order = await api<{ Items: Record<string, unknown>[] }>(
      page,
      'GET',
      `/api/ChargeOrder?ChargeRecordId=${recordId}`,
    );
    expect(order.data.Items[0]).toMatchObject({ Open: true, Forced: false, Estimated: true });
    expect(await socket.getAttribute('data-card')).toBe(card);
    await goto(page, '/Bicycle/forcedOutageRecords');
    await rows(page).first().waitFor();
    const notSent = rows(page)
      .filter({ hasText: String(order.data.Items[0]!.OrderNo) })
      .first();
    await notSent.waitFor();
    expect(await notSent.locator('[data-testid="outage-result"]').getAttribute('data-result')).toBe('0');

    // The host screen says which charge points are connected and which are not.
    await goto(page, '/Bicycle/chargeHost');
    await rows(page).first().waitFor();
    await search(page, 'Keyword', host.SerialNumber.slice(0, -2));
    const listed = row(page, host.SerialNumber);
    await eventually(() => listed.locator('[data-testid="host-online"]').innerText(), 20_000).toBe(
      words.notConnected,
    );
    await shoot(page, 'hosts', language);

    // Back online: live again, and the charger still holds the session (it never stopped).
    await simulator(ocpp, `/points/${host.SerialNumber}/online`);
    await eventually(() => listed.locator('[data-testid="host-online"]').innerText(), 20_000).toBe(
      words.connected,
    );
    expect(await listed.locator('[data-testid="host-device"]').innerText()).toContain('Gatehouse demo');
    await simulator(ocpp, `/points/${host.SerialNumber}/connectors/${port}/unplug`);
  });

  it('starts a session for a card from the grid: the charger starts it and the tile shows it live', async () => {
    const { ocpp } = await suite.control();
    const { page } = await suite.signedIn('bikeuser', { language, width: 1440, height: 900 });
    const host = await ocppHost(page, hostIndex);
    const card = (await idleCards(page, ocpp))[hostIndex * 8 + 2]!;
    await openGrid(page, host);
    const port = (await freeConnectors(page, ocpp, host.SerialNumber)).at(-1)!.id;
    // A bike is plugged in, nobody swipes: the socket waits for a card (170) and offers a start.
    await simulator(ocpp, `/points/${host.SerialNumber}/connectors/${port}/plug-in`, { soc: 40 });
    const socket = tile(page, port);
    await eventually(() => socket.getAttribute('data-state'), 15_000).toBe('170');
    await socket.locator('[data-testid="socket-remote-start"]').click();
    await page.locator('[data-testid="remote-start-card"]').fill(card);
    await shoot(page, 'remote-start', language);
    await page.locator('[data-testid="remote-start-ok"]').click();
    await eventually(() => toasts(page)).toEqual(
      expect.arrayContaining([expect.stringContaining('Accepted')]),
    );
    await eventually(() => socket.getAttribute('data-card'), 15_000).toBe(card);
    const point = (await connectors(ocpp, host.SerialNumber)).find((c) => c.id === port)!;
    expect(point.idTag).toBe(card);
    await simulator(ocpp, `/points/${host.SerialNumber}/connectors/${port}/unplug`);
  });
});

describe('host commands', () => {
  it('restarts a charge point from the host screen, and sets a new OCPP password shown once', async () => {
    const { page } = await suite.signedIn('bikeadmin', { language: 'en', width: 1440, height: 900 });
    const restarted = await ocppHost(page, 2);
    await goto(page, '/Bicycle/chargeHost');
    await rows(page).first().waitFor();
    await search(page, 'Keyword', restarted.SerialNumber);
    const listed = row(page, restarted.SerialNumber);
    await listed.waitFor();
    await rowAction(listed, 'reset').click();
    await page.locator('.ant-popover:visible .ant-btn-primary').click();
    await eventually(() => toasts(page)).toEqual(
      expect.arrayContaining([expect.stringContaining(`${restarted.Name} accepted the restart (Accepted)`)]),
    );
    // It drops its connection and boots again.
    await eventually(async () => (await ocppHost(page, 2)).Online, 30_000).toBe(true);

    const secret = await ocppHost(page, 3);
    await search(page, 'Keyword', secret.SerialNumber);
    const target = row(page, secret.SerialNumber);
    await target.waitFor();
    await rowAction(target, 'ocppPassword').click();
    await page.locator('.ant-popover:visible .ant-btn-primary').click();
    const shown = page.locator('[data-testid="ocpp-password"]');
    await shown.waitFor();
    const password = (await shown.innerText()).trim();
    expect(password).toMatch(/^[0-9a-f]{40}$/);
    await shoot(page, 'ocpp-password', 'en');
    await page.locator('.ant-modal:visible .ant-btn-primary').click();
    await shown.waitFor({ state: 'detached' });
    // Once: neither the screen nor the API shows it again.
    expect(await page.locator('body').innerText()).not.toContain(password);
    const item = await api(page, 'GET', `/api/ChargeHost/${secret.Id}`);
    expect(JSON.stringify(item.data)).not.toContain(password);

    // An operator without the Admin code is not offered either command.
    const user = await suite.signedIn('bikeuser', { language: 'en' });
    await goto(user.page, '/Bicycle/chargeHost');
    await rows(user.page).first().waitFor();
    await expect(
      user.page.locator('[data-testid="row-reset"], [data-testid="row-ocppPassword"]').count(),
    ).resolves.toBe(0);
  });
});
