// The demo's charge points: with the demo seed and SIMULATOR on, `npm start` connects a simulated OCPP
// charge point for every demo host of the charging-API type (their password, DEMO_OCPP_KEY, was set when the
// demo was seeded) and makes some activity in real time: bikes plug in (100–400 W), riders swipe known cards
// (one socket per card at a time), bikes leave hours later. Every running session is one a simulated charge
// point started and carries: the demo seeds none. The charge points run in the server's process and restart with
// it, where real chargers would keep running: they start with the sessions the database says they were running
// (ChargePoint.resume), so a restart of the demo keeps them (issue 27). Nothing here runs with SIMULATOR=off.

import { Simulator, type ChargePoint } from '@gatehouse/ocpp-simulator';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { DEMO_OCPP_KEY } from './garage.ts';
import { OCPP_CHARGING_SYSTEM_TYPE } from '../gateways/ocpp/index.ts';

export interface DemoChargePoints {
  simulator: Simulator;
  close(): Promise<void>;
}

export async function startDemoChargePoints(
  db: Db,
  url: string,
  options: {
    everySeconds?: number;
    speed?: number;
    random?: () => number;
    /** Riders arrive and leave (false: the charge points only carry what they resume; tests). */
    arrivals?: boolean;
  } = {},
): Promise<DemoChargePoints | undefined> {
  const k = db.kysely;
  const hosts = await chargingApiHosts(k);
  if (hosts.length === 0) return undefined;
  const cardsOf = await knownCards(k);

  // Real time: an e-bike charger draws 100–400 W and a pack takes hours (issue 21, item 15). A faster demo
  // (options.speed > 1) would show power figures that energy over time contradicts.
  const speed = options.speed ?? 1;
  const simulator = new Simulator({
    url,
    points: hosts.map((h) => h.SerialNumber),
    connectors: Math.max(...hosts.map((h) => h.PortCount)),
    password: DEMO_OCPP_KEY,
    vendor: 'Gatehouse demo',
    model: 'EBike-10',
    speed,
    meterIntervalSeconds: 60,
    // A temperature sensor: Gatehouse's configuration adds Temperature to what they meter, and one made to
    // overheat through the control API shows the heat alarm (docs/chargers.md "Heat").
    temperature: true,
  });
  const riders = new Riders(
    simulator,
    cardsOf,
    new Map(hosts.map((h) => [h.SerialNumber, h.AreaId])),
    options.random ?? Math.random,
    speed,
  );
  // Taken up before the charge points connect, so their boot reports those sockets charging.
  riders.resume(await runningSessions(k));
  await simulator.start();
  // At start, about a third of the sockets have a bike (real sessions the charge points carry, not seeded rows):
  // those they resumed and new arrivals up to that.
  const arrivals = options.arrivals ?? true;
  setTimeout(() => {
    if (arrivals) riders.fillToAThird();
  }, 2000).unref();
  // Then arrivals and departures keep about that occupancy.
  const timer = setInterval(() => riders.tick(arrivals), (options.everySeconds ?? 5) * 1000);
  timer.unref();
  return {
    simulator,
    async close() {
      clearInterval(timer);
      await simulator.stop();
    },
  };
}

/** The enabled demo hosts of the charging-API type that have an OCPP password: one charge point each. */
function chargingApiHosts(k: Kysely<Database>) {
  return k
    .selectFrom('ChargeHost')
    .select(['SerialNumber', 'AreaId', 'PortCount'])
    .where('ChargingSystemType', '=', OCPP_CHARGING_SYSTEM_TYPE)
    .where('Disabled', '=', 0)
    .where('OcppPasswordHash', 'is not', null)
    .execute();
}

/** Cards each area knows (enabled vehicles' cards): what riders swipe. */
async function knownCards(k: Kysely<Database>): Promise<Map<number, string[]>> {
  const vehicles = await k
    .selectFrom('Vehicle')
    .select(['AreaId', 'CardNumber'])
    .where('Disabled', '=', 0)
    .where('CardNumber', 'is not', null)
    .execute();
  const cardsOf = new Map<number, string[]>();
  for (const v of vehicles) cardsOf.set(v.AreaId, [...(cardsOf.get(v.AreaId) ?? []), v.CardNumber!]);
  return cardsOf;
}

/** The sessions the charge points were running when the server stopped (on enabled sockets). */
function runningSessions(k: Kysely<Database>) {
  return k
    .selectFrom('ChargeRecord')
    .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId')
    .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
    .select([
      'ChargeRecord.Id',
      'ChargeRecord.CardNumber',
      'ChargeRecord.StartAt',
      'ChargeRecord.MeterStartWh',
      'ChargeRecord.EnergyWh',
      'ChargeEquipment.PortNumber',
      'ChargeHost.SerialNumber',
    ])
    .where('ChargeRecord.EndAt', 'is', null)
    .where('ChargeHost.ChargingSystemType', '=', OCPP_CHARGING_SYSTEM_TYPE)
    .where('ChargeEquipment.Disabled', '=', 0)
    .execute();
}

type RunningSession = Awaited<ReturnType<typeof runningSessions>>[number];

/**
 * The demo's riders at the charge points. Only the bikes they brought (connector → the card they swiped) leave
 * again: a bike plugged in through the simulator's control API (a person trying it out, an end-to-end test)
 * stays until that person unplugs it. A card is on one socket at a time: a rider has one bike.
 */
class Riders {
  private readonly riders = new Map<string, { card: string | null; leavesAt: number }>();
  private readonly cardsInUse = new Set<string>();

  constructor(
    private readonly simulator: Simulator,
    /** Cards known per area. */
    private readonly cardsOf: Map<number, string[]>,
    /** Each charge point's area. */
    private readonly areaOf: Map<string, number>,
    private readonly random: () => number,
    private readonly speed: number,
  ) {}

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  private key(cp: string, connector: number): string {
    return `${cp}#${connector}`;
  }

  /** The sessions running when the server stopped, taken up again; their riders leave 1–6 h after they came. */
  resume(running: RunningSession[]): void {
    for (const session of running) {
      const cp = this.simulator.points.get(session.SerialNumber);
      if (!cp || session.PortNumber > cp.connectors.length) continue;
      cp.setPower(session.PortNumber, 100 + Math.round(this.random() * 300));
      cp.resume(
        session.PortNumber,
        {
          transactionId: session.Id,
          idTag: session.CardNumber ?? '',
          meterStartWh: session.MeterStartWh ?? 0,
          energyWh: session.EnergyWh,
          startedAt: session.StartAt,
        },
        { soc: 0.2 + this.random() * 0.5 },
      );
      if (session.CardNumber) this.cardsInUse.add(session.CardNumber);
      const leavesAt = session.StartAt + ((1 + this.random() * 5) * 3_600_000) / this.speed;
      this.riders.set(this.key(session.SerialNumber, session.PortNumber), {
        card: session.CardNumber,
        leavesAt: Math.max(leavesAt, Date.now() + 60_000),
      });
    }
  }

  /** New arrivals at every charge point until about a third of its sockets have a bike. */
  fillToAThird(): void {
    for (const cp of this.simulator.points.values()) {
      const plugged = cp.connectors.filter((c) => c.plugged).length;
      for (let i = plugged; i < Math.round(cp.connectors.length / 3); i++) this.arrive(cp);
    }
  }

  /** Riders whose time is up leave; maybe one arrives at a charge point less than a third occupied. */
  tick(arrivals: boolean): void {
    const now = Date.now();
    for (const cp of this.simulator.points.values())
      for (const c of cp.connectors) {
        const r = this.riders.get(this.key(cp.id, c.id));
        if (r && r.leavesAt <= now) this.leave(cp, c.id);
      }
    const cp = this.pick([...this.simulator.points.values()]);
    const plugged = cp.connectors.filter((c) => c.plugged).length;
    if (arrivals && plugged < cp.connectors.length / 3 && this.random() < 0.3) this.arrive(cp);
  }

  private leave(cp: ChargePoint, connector: number): void {
    const key = this.key(cp.id, connector);
    const card = this.riders.get(key)?.card;
    if (card) this.cardsInUse.delete(card);
    this.riders.delete(key);
    void cp.unplug(connector).catch(() => undefined);
  }

  /** A rider arrives at a free socket: plugs the bike in (100–400 W, a pack 10–70 % full) and swipes a card. */
  private arrive(cp: ChargePoint): boolean {
    const cards = (this.cardsOf.get(this.areaOf.get(cp.id) ?? 0) ?? []).filter(
      (c) => !this.cardsInUse.has(c),
    );
    const free = cp.connectors.filter((c) => !c.plugged && c.status === 'Available');
    if (!cp.online || free.length === 0 || cards.length === 0) return false;
    const c = this.pick(free);
    const card = this.pick(cards);
    this.cardsInUse.add(card);
    cp.setPower(c.id, 100 + Math.round(this.random() * 300));
    // Riders come back between one and six hours later (of simulated time), charged or not.
    const leavesAt = Date.now() + ((1 + this.random() * 5) * 3_600_000) / this.speed;
    this.riders.set(this.key(cp.id, c.id), { card, leavesAt });
    void cp.plugIn(c.id, { soc: 0.1 + this.random() * 0.6 }).then(
      // A refused card leaves the bike plugged in: it is still the rider's, and leaves later.
      () => cp.swipe(c.id, card).catch(() => undefined),
      () => {
        this.cardsInUse.delete(card);
        this.riders.delete(this.key(cp.id, c.id));
      },
    );
    return true;
  }
}
