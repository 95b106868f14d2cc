import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { eventually, goto } from './app.ts';

/*
 * The garage's device e2e files (garage-devices, garage-safety) against a server running the demo's simulated OCPP
 * charge points (packages/server/src/demo/charge-points.ts): the Gatehouse API as the signed-in page, the
 * simulator's control API (packages/ocpp-simulator/src/http.ts), the area's charging-API hosts, the cards free
 * to charge with, a session started at a charge point, and the host's socket grid.
 */

/** A charging-API host as GET /api/ChargeHost lists it (the fields these files read). */
export interface OcppHost {
  Id: number;
  SerialNumber: string;
  Name: string;
  Online: boolean;
  ParkAreaId: number;
  HeatAlarm: unknown;
}

/** A simulated charge point's connector as its control API reports it. */
export interface Connector {
  id: number;
  status: string;
  plugged: boolean;
  transactionId: number | null;
  idTag: string | null;
}

/** A call to the Gatehouse API as the signed-in page (its token and current area). */
export async function api<T>(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ code: number; msg: string; data: T }> {
  return page.evaluate(
    async ([method, path, body]) => {
      const token = decodeURIComponent(/REToken=([^;]+)/.exec(document.cookie)?.[1] ?? '');
      const res = await fetch(path, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          'X-Area-Id': localStorage.getItem('Aid') ?? '',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return res.json();
    },
    [method, path, body] as const,
  );
}

/** A call to the OCPP simulator's control API (packages/ocpp-simulator/src/http.ts). */
export async function simulator<T>(base: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined && path === '/points' ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(`${path}: ${json.error}`);
  return json;
}

/** The connectors of one simulated charge point, as it reports them now. */
export async function connectors(base: string, serial: string): Promise<Connector[]> {
  const points = await simulator<{ id: string; online: boolean; connectors: Connector[] }[]>(base, '/points');
  return points.find((p) => p.id === serial)?.connectors ?? [];
}

/** The area's n-th charging-API host (id order), once connected. */
export async function ocppHost(page: Page, index: number): Promise<OcppHost> {
  let host: OcppHost | undefined;
  await eventually(async () => {
    const list = await api<{ Items: OcppHost[] }>(
      page,
      'GET',
      '/api/ChargeHost?ChargingSystemType=2&PageSize=50',
    );
    host = [...list.data.Items].sort((a, b) => a.Id - b.Id)[index];
    return host?.Online ?? false;
  }, 60_000).toBe(true);
  return host!;
}

/** Cards of the area's enabled vehicles without a pass: their sessions are priced by the zone's rule. */
export async function chargeableCards(page: Page): Promise<string[]> {
  const list = await api<{ Items: { CardNumber: string | null; ActivePass: unknown; Disabled: boolean }[] }>(
    page,
    'GET',
    '/api/Vehicle?PageSize=100',
  );
  return list.data.Items.filter((v) => v.CardNumber && !v.ActivePass && !v.Disabled).map(
    (v) => v.CardNumber!,
  );
}

/** Chargeable cards no simulated bike is charging with now: a card charges one bike at a time (ConcurrentTx). */
export async function idleCards(page: Page, base: string): Promise<string[]> {
  const points = await simulator<{ connectors: Connector[] }[]>(base, '/points');
  const charging = new Set(points.flatMap((p) => p.connectors.map((c) => c.idTag)));
  return (await chargeableCards(page)).filter((card) => !charging.has(card));
}

/**
 * The first of the candidate cards that no session holds: none of the area's running sessions as Gatehouse has
 * them (GET /api/ChargeRecord?Open=true, every charger's), and no bike a simulated charger carries (a rider's
 * swipe on its way). Chosen once, in the candidates' order, so a test knows its card before it swipes it.
 */
export async function freeCard(page: Page, base: string, candidates: string[]): Promise<string> {
  const open = await api<{ Items: { CardNumber: string | null }[]; Total: number }>(
    page,
    'GET',
    '/api/ChargeRecord?Open=true&PageSize=100',
  );
  expect(open.code, open.msg).toBe(200);
  // More running sessions than a page would leave some unseen: the demo runs about a third of its sockets.
  expect(open.data.Total).toBeLessThanOrEqual(100);
  const points = await simulator<{ connectors: Connector[] }[]>(base, '/points');
  const held = new Set([
    ...open.data.Items.map((r) => r.CardNumber),
    ...points.flatMap((p) => p.connectors.map((c) => c.idTag)),
  ]);
  const card = candidates.find((c) => !held.has(c));
  if (!card) throw new Error(`every one of the ${candidates.length} candidate cards is charging`);
  return card;
}

/**
 * The connectors of a charge point where a bike can be plugged in and charged: nothing plugged, the charger
 * says Available, and the socket is not disabled in Gatehouse (the demo disables a few; the charger still
 * reports them Available, and Gatehouse answers a swipe there Blocked).
 */
export async function freeConnectors(page: Page, base: string, serial: string): Promise<Connector[]> {
  const disabled = await api<{ Items: { HostSerialNumber: string; PortNumber: number }[] }>(
    page,
    'GET',
    '/api/ChargeEquipment?Disabled=true&PageSize=100',
  );
  expect(disabled.code, disabled.msg).toBe(200);
  const off = new Set(
    disabled.data.Items.filter((s) => s.HostSerialNumber === serial).map((s) => s.PortNumber),
  );
  return (await connectors(base, serial)).filter(
    (c) => !c.plugged && c.status === 'Available' && !off.has(c.id),
  );
}

/**
 * A session started at a charge point through its control API: a bike plugged in on a free connector and a card
 * no session holds (freeCard) swiped there, which the charger's StartTransaction makes a session (its id is the
 * transactionId). The card is chosen once and swiped once: it must be accepted. Only a connector one of the demo's
 * riders took in the meantime (its own transaction answers the swipe ConcurrentTx) is passed over for another.
 */
export async function startSession(
  page: Page,
  base: string,
  serial: string,
  candidates: string[],
): Promise<{ port: number; recordId: number; card: string }> {
  const card = await freeCard(page, base, candidates);
  const skip: number[] = [];
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const c = (await freeConnectors(page, base, serial)).filter((c) => !skip.includes(c.id)).at(-1);
    if (!c) break;
    await simulator(base, `/points/${serial}/connectors/${c.id}/plug-in`, { soc: 30 });
    const started = await simulator<{ status: string; transactionId?: number }>(
      base,
      `/points/${serial}/connectors/${c.id}/swipe`,
      { idTag: card },
    );
    if (started.status === 'Accepted' && started.transactionId)
      return { port: c.id, recordId: started.transactionId, card };
    const now = (await connectors(base, serial)).find((x) => x.id === c.id);
    if (started.status === 'ConcurrentTx' && now?.idTag && now.idTag !== card) {
      skip.push(c.id);
      continue;
    }
    throw new Error(`card ${card} at ${serial} connector ${c.id}: ${started.status}`);
  }
  throw new Error(`no free connector on ${serial}`);
}

/** The host's socket grid, once its summary names it. */
export async function openGrid(page: Page, host: { Id: number; SerialNumber: string }): Promise<void> {
  await goto(page, `/Bicycle/chargeEquipment?ChargeHostId=${host.Id}&view=grid`);
  const summary = page.locator('[data-testid="grid-host-summary"]');
  await summary.waitFor({ timeout: 60_000 });
  await eventually(() => summary.innerText(), 30_000).toContain(host.SerialNumber);
}
