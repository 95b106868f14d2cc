import type { AddressInfo } from 'node:net';
import { ChargePoint } from '@gatehouse/ocpp-simulator';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { RPCClient } from 'ocpp-rpc';
import type { Db } from '../../src/db/database.ts';
import type { Database } from '../../src/db/schema.ts';
import { setOcppPassword } from '../../src/gateways/ocpp/index.ts';

/*
 * The garage's side of a strict OCPP 1.6J charger test, once: the app listening for charge points, a zone with
 * its charging rule, a charging-API host and its sockets with an OCPP password, vehicles that carry the cards,
 * a strict ocpp-rpc client, and the repo's simulator connected, booted, a bike plugged in and a card swiped.
 * The OCPP test files (ocpp-central, ocpp-power, ocpp-heat, ocpp-budget, ocpp-emergency-stop,
 * garage-tariff-dimensions) each had their own copy of these steps.
 */

export type Client = InstanceType<typeof RPCClient>;

/** Waits until `check` holds (polled every 15 ms); throws after `ms`. */
export async function until(check: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 15));
  }
}

/** The app listening on a free loopback port; returns the URL charge points connect to (`ws://…/ocpp`). */
export async function listenForChargers(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ocpp`;
}

/**
 * A strict OCPP 1.6 charge point (ocpp-rpc in strict mode: what it sends and what it accepts are checked against
 * the schemas), not connected yet and never reconnecting by itself.
 */
export function strictClient(url: string, identity: string, password?: string | Buffer): Client {
  return new RPCClient({
    endpoint: url,
    identity,
    protocols: ['ocpp1.6'],
    strictMode: true,
    reconnect: false,
    ...(password !== undefined ? { password } : {}),
  } as ConstructorParameters<typeof RPCClient>[0]);
}

/** A temporary charging rule's terms (metered at ¥1.20/kWh unless said otherwise). */
export interface RuleSeed {
  name: string;
  unitPriceCents?: number;
  freeMinutes?: number;
  /** The rule's safety limit on power (W; null: none). */
  maxPowerW?: number | null;
}

export interface ZoneSeed {
  name: string;
  now: number;
  areaId?: number;
  capacity?: number;
  maxTemperatureC?: number | null;
  powerBudgetW?: number | null;
  /** Its temporary charging rule, linked to it; none: the test links its own. */
  rule?: RuleSeed;
}

/** A parking zone with one temporary charging rule (metered) linked to it, written directly. */
export async function insertZone(
  k: Kysely<Database>,
  seed: ZoneSeed,
): Promise<{ id: number; ruleId: number | null }> {
  const areaId = seed.areaId ?? 1;
  const zone = await k
    .insertInto('ParkArea')
    .values({
      AreaId: areaId,
      Name: seed.name,
      Capacity: seed.capacity ?? 10,
      Location: null,
      Remark: null,
      ...(seed.maxTemperatureC !== undefined ? { MaxTemperatureC: seed.maxTemperatureC } : {}),
      ...(seed.powerBudgetW !== undefined ? { PowerBudgetW: seed.powerBudgetW } : {}),
      CreatedAt: seed.now,
      UpdatedAt: seed.now,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  if (!seed.rule) return { id: zone.Id, ruleId: null };
  const rule = await k
    .insertInto('ChargeRule')
    .values({
      AreaId: areaId,
      Name: seed.rule.name,
      ChargeType: 3,
      TemporaryChargeType: 2,
      UnitPriceCents: seed.rule.unitPriceCents ?? 120,
      TimeUnit: null,
      FreeMinutes: seed.rule.freeMinutes ?? 5,
      CapCents: null,
      Remark: null,
      ...(seed.rule.maxPowerW !== undefined ? { MaxPowerW: seed.rule.maxPowerW } : {}),
      CreatedAt: seed.now,
      UpdatedAt: seed.now,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  await k.insertInto('ParkAreaChargeRule').values({ ParkAreaId: zone.Id, ChargeRuleId: rule.Id }).execute();
  return { id: zone.Id, ruleId: rule.Id };
}

export interface HostSeed {
  zoneId: number;
  serial: string;
  now: number;
  areaId?: number;
  /** Sockets, numbered from 1 (4 unless said). */
  ports?: number;
  /** chargingSystemType: 2, the charging API (OCPP), unless said. */
  type?: number;
  disabled?: boolean;
  maxPowerW?: number | null;
  /** The OCPP password its charge point signs in with; none: it has none (the handshake is refused). */
  password?: string;
}

/** A charging host in a zone with its sockets (idle), and its OCPP password when given, written directly. */
export async function insertChargingHost(
  db: Db,
  seed: HostSeed,
): Promise<{ id: number; serial: string; sockets: number[] }> {
  const k = db.kysely;
  const areaId = seed.areaId ?? 1;
  const ports = seed.ports ?? 4;
  const host = await k
    .insertInto('ChargeHost')
    .values({
      AreaId: areaId,
      ParkAreaId: seed.zoneId,
      SerialNumber: seed.serial,
      Name: seed.serial,
      PortCount: ports,
      ChargingSystemType: seed.type ?? 2,
      Endpoint: null,
      Account: null,
      Password: null,
      Remark: null,
      ...(seed.disabled !== undefined ? { Disabled: seed.disabled ? 1 : 0 } : {}),
      LastSeenAt: null,
      ...(seed.maxPowerW !== undefined ? { MaxPowerW: seed.maxPowerW } : {}),
      CreatedAt: seed.now,
      UpdatedAt: seed.now,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  const sockets = await k
    .insertInto('ChargeEquipment')
    .values(
      Array.from({ length: ports }, (_, i) => ({
        AreaId: areaId,
        ChargeHostId: host.Id,
        PortNumber: i + 1,
        State: 0,
        StateChangedAt: seed.now,
        Remark: null,
        CreatedAt: seed.now,
        UpdatedAt: seed.now,
      })),
    )
    .returning('Id')
    .execute();
  if (seed.password !== undefined) await setOcppPassword(db, host.Id, seed.password);
  return { id: host.Id, serial: seed.serial, sockets: sockets.map((s) => s.Id) };
}

/** A vehicle carrying a card: the area knows the card (a card charges one bike at a time). */
export interface CardVehicle {
  card: string;
  plate: string;
  owner?: string | null;
  disabled?: boolean;
}

/** The vehicles, written directly; returns their ids in order. */
export async function insertCardVehicles(
  k: Kysely<Database>,
  vehicles: CardVehicle[],
  now: number,
  areaId = 1,
): Promise<number[]> {
  const ids: number[] = [];
  for (const v of vehicles) {
    const row = await k
      .insertInto('Vehicle')
      .values({
        AreaId: areaId,
        Plate: v.plate,
        OwnerName: v.owner === undefined ? 'Test' : v.owner,
        Phone: null,
        CardHolderId: null,
        CardHolderName: null,
        CardId: null,
        CardNumber: v.card,
        Remark: null,
        Disabled: v.disabled ? 1 : 0,
        CreatedAt: now,
        UpdatedAt: now,
      })
      .returning('Id')
      .executeTakeFirstOrThrow();
    ids.push(row.Id);
  }
  return ids;
}

export interface SimulatorSeed {
  url: string;
  serial: string;
  password: string;
  /** The test's clock: the charge point stamps its messages with it. */
  now: () => number;
  connectors?: number;
  smartCharging?: boolean;
  temperature?: boolean;
}

/** The repo's simulator (a strict ocpp-rpc client) for a host, not connected yet, its timers off. */
export function simulator(seed: SimulatorSeed): ChargePoint {
  return new ChargePoint({
    url: seed.url,
    id: seed.serial,
    password: seed.password,
    connectors: seed.connectors ?? 4,
    timers: false,
    ...(seed.smartCharging !== undefined ? { smartCharging: seed.smartCharging } : {}),
    ...(seed.temperature !== undefined ? { temperature: seed.temperature } : {}),
    now: seed.now,
  });
}

/**
 * The simulator connected and its BootNotification accepted. `points` collects it for the file's afterAll to
 * close (a test that closes its own passes none).
 */
export async function simulatorOnline(seed: SimulatorSeed, points?: ChargePoint[]): Promise<ChargePoint> {
  const cp = simulator(seed);
  points?.push(cp);
  await cp.goOnline();
  await until(() => cp.bootStatus === 'Accepted');
  return cp;
}

/**
 * A bike plugged in at the connector (drawing `watts` when given) and the card swiped there: the charge point's
 * StartTransaction as the central system answered it.
 */
export async function plugInAndSwipe(
  cp: ChargePoint,
  connector: number,
  card: string,
  bike: Parameters<ChargePoint['plugIn']>[1] = {},
  watts?: number,
): ReturnType<ChargePoint['swipe']> {
  await cp.plugIn(connector, bike);
  if (watts !== undefined) cp.setPower(connector, watts);
  return cp.swipe(connector, card);
}
