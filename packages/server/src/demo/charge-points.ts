// The demo's charge points: with the demo seed and SIMULATOR on, `npm start` connects a simulated OCPP
// charge point for every demo host of the charging-API type (their password, DEMO_OCPP_KEY, was set when the
// demo was seeded) and makes some activity: bikes plug in, riders swipe known cards, bikes leave. A new user
// sees sockets and sessions opening and closing live. Nothing here runs with SIMULATOR=off or in tests.

import { Simulator } from '@gatehouse/ocpp-simulator';
import type { Db } from '../db/database.ts';
import { DEMO_OCPP_KEY } from './garage.ts';
import { OCPP_CHARGING_SYSTEM_TYPE } from '../gateways/ocpp/index.ts';

export interface DemoChargePoints {
  simulator: Simulator;
  close(): Promise<void>;
}

export async function startDemoChargePoints(
  db: Db,
  url: string,
  options: { everySeconds?: number; speed?: number; random?: () => number } = {},
): Promise<DemoChargePoints | undefined> {
  const k = db.kysely;
  const hosts = await k
    .selectFrom('ChargeHost')
    .select(['SerialNumber', 'AreaId', 'PortCount'])
    .where('ChargingSystemType', '=', OCPP_CHARGING_SYSTEM_TYPE)
    .where('Disabled', '=', 0)
    .where('OcppPasswordHash', 'is not', null)
    .execute();
  if (hosts.length === 0) return undefined;
  // Cards each area knows (enabled vehicles' cards): what riders swipe.
  const vehicles = await k
    .selectFrom('Vehicle')
    .select(['AreaId', 'CardNumber'])
    .where('Disabled', '=', 0)
    .where('CardNumber', 'is not', null)
    .execute();
  const cardsOf = new Map<number, string[]>();
  for (const v of vehicles) cardsOf.set(v.AreaId, [...(cardsOf.get(v.AreaId) ?? []), v.CardNumber!]);
  const areaOf = new Map(hosts.map((h) => [h.SerialNumber, h.AreaId]));

  const simulator = new Simulator({
    url,
    points: hosts.map((h) => h.SerialNumber),
    connectors: Math.max(...hosts.map((h) => h.PortCount)),
    password: DEMO_OCPP_KEY,
    vendor: 'Gatehouse demo',
    model: 'EBike-10',
    // Batteries fill in minutes rather than hours, so sessions end while someone watches.
    speed: options.speed ?? 30,
    meterIntervalSeconds: 30,
  });
  await simulator.start();
  const random = options.random ?? Math.random;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  // The bikes the demo's riders brought: only these leave again. A bike plugged in through the simulator's
  // control API (a person trying it out, an end-to-end test) stays until that person unplugs it.
  const riders = new Set<string>();
  const rider = (cp: string, connector: number) => `${cp}#${connector}`;
  const timer = setInterval(
    () => {
      const cp = pick([...simulator.points.values()]);
      if (!cp.online) return;
      const cards = cardsOf.get(areaOf.get(cp.id) ?? 0) ?? [];
      const free = cp.connectors.filter((c) => !c.plugged && c.status === 'Available');
      const busy = cp.connectors.filter((c) => c.plugged && riders.has(rider(cp.id, c.id)));
      if (free.length > 0 && cards.length > 0 && (busy.length === 0 || random() < 0.6)) {
        const c = pick(free);
        cp.setPower(c.id, 100 + Math.round(random() * 300));
        riders.add(rider(cp.id, c.id));
        void cp.plugIn(c.id, { soc: 0.1 + random() * 0.6 }).then(
          // A refused card leaves the bike plugged in: it is still the rider's, and leaves later.
          () => cp.swipe(c.id, pick(cards)).catch(() => undefined),
          () => riders.delete(rider(cp.id, c.id)),
        );
      } else if (busy.length > 0) {
        const c = pick(busy);
        riders.delete(rider(cp.id, c.id));
        void cp.unplug(c.id).catch(() => undefined);
      }
    },
    (options.everySeconds ?? 5) * 1000,
  );
  timer.unref();
  return {
    simulator,
    async close() {
      clearInterval(timer);
      await simulator.stop();
    },
  };
}
