#!/usr/bin/env -S node --import tsx
/**
 * Usage: node --import tsx packages/ocpp-simulator/src/cli.ts --url ws://127.0.0.1:8080/ocpp \
 *          [--points 3 | --ids CP1,CP2] [--connectors 10] [--password secret] [--http-port 0] \
 *          [--speed 1] [--meter-interval 60] [--temperature] [--smart-charging] \
 *          [--activity --cards 12345678,87654321]
 *
 * Connects the charge points, prints what happens, and serves the JSON control API (src/http.ts) on
 * 127.0.0.1. With --activity, bikes come and go at random on free connectors and swipe one of --cards.
 * With --temperature the chargers have a sensor, and one is made to overheat through the control API:
 *   curl -X POST localhost:<http port>/points/<id>/temperature -d '{"celsius": 85}'   (null: normal again)
 * With --smart-charging they take TxProfile limits (SetChargingProfile), and one draws more than its share with:
 *   curl -X POST localhost:<http port>/points/<id>/connectors/<n>/overdraw -d '{"watts": 500}'   (null: keep to it)
 */
import { parseArgs } from 'node:util';
import { startControlApi } from './http.ts';
import { Simulator } from './simulator.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'ws://127.0.0.1:8080/ocpp' },
    points: { type: 'string', default: '1' },
    ids: { type: 'string' },
    connectors: { type: 'string', default: '10' },
    password: { type: 'string' },
    'http-port': { type: 'string', default: '0' },
    speed: { type: 'string', default: '1' },
    'meter-interval': { type: 'string', default: '60' },
    activity: { type: 'boolean', default: false },
    // A temperature sensor: MeterValuesSampledData takes Temperature (without, a list with it is Rejected).
    temperature: { type: 'boolean', default: false },
    // Smart charging: SupportedFeatureProfiles lists SmartCharging and TxProfile limits are honoured.
    'smart-charging': { type: 'boolean', default: false },
    cards: { type: 'string', default: '' },
    quiet: { type: 'boolean', default: false },
  },
});

const sim = new Simulator({
  url: values.url,
  points: values.ids ? values.ids.split(',').filter(Boolean) : Number(values.points),
  connectors: Number(values.connectors),
  ...(values.password !== undefined ? { password: values.password } : {}),
  speed: Number(values.speed),
  meterIntervalSeconds: Number(values['meter-interval']),
  temperature: values.temperature,
  smartCharging: values['smart-charging'],
});

for (const cp of sim.points.values()) {
  if (!values.quiet) {
    cp.on('log', (text: string) => console.log(text));
    cp.on('status', (connector: number, status: string) =>
      console.log(`[${cp.id}] connector ${connector} ${status}`),
    );
    cp.on('boot', (conf: { status: string; interval: number }) =>
      console.log(`[${cp.id}] boot ${conf.status}, interval ${conf.interval} s`),
    );
  }
  cp.on('offline', () => console.log(`[${cp.id}] offline`));
}

/** Connects one charge point, retrying a refused or failed connection every 10 s. */
async function connect(id: string): Promise<void> {
  for (;;) {
    try {
      await sim.goOnline(id);
      console.log(`[${id}] connected`);
      return;
    } catch (error) {
      console.log(`[${id}] could not connect: ${String(error)}; retrying in 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 10_000));
    }
  }
}

const api = await startControlApi(sim, Number(values['http-port']));
console.log(`control API on ${api.url}/points`);
await Promise.all([...sim.points.keys()].map(connect));

if (values.activity) {
  const cards = values.cards.split(',').filter(Boolean);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
  // One event every few seconds across the site: a bike arrives and its rider swipes, or a bike leaves.
  setInterval(() => {
    const cp = pick([...sim.points.values()]);
    if (!cp.online) return;
    const free = cp.connectors.filter((c) => !c.plugged && c.status === 'Available');
    const busy = cp.connectors.filter((c) => c.plugged);
    if (free.length > 0 && (busy.length === 0 || Math.random() < 0.6)) {
      const c = pick(free);
      cp.setPower(c.id, 100 + Math.round(Math.random() * 300));
      void cp
        .plugIn(c.id, { soc: 0.1 + Math.random() * 0.6 })
        .then(() => (cards.length > 0 ? cp.swipe(c.id, pick(cards)) : undefined))
        .catch((error: unknown) => console.log(`[${cp.id}] ${String(error)}`));
    } else if (busy.length > 0) {
      void cp.unplug(pick(busy).id).catch((error: unknown) => console.log(`[${cp.id}] ${String(error)}`));
    }
  }, 5000);
}

const shutdown = () => {
  void sim
    .stop()
    .then(() => api.close())
    .finally(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
