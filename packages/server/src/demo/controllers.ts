// The demo's controllers: with the demo seed and SIMULATOR on, `npm start` runs a simulated WG controller
// for every demo device that has a loopback address, and swipes cards at them now and then, so a new user
// sees authorisations reach "issue succeeded" and swipes arrive live. Nothing here runs in a real deployment
// (SIMULATOR=off) or in tests.

import { WgSimulator, type ControllerOptions } from '@gatehouse/wg-simulator';
import type { Db } from '../db/database.ts';
import { recordCursor, wgControllers } from '../modules/access-control/index.ts';
import { systemClock } from '../platform/clock.ts';
import { systemActor, type ServiceContext } from '../platform/context.ts';

export interface DemoControllers {
  simulator: WgSimulator;
  close(): Promise<void>;
}

export async function startDemoControllers(
  db: Db,
  options: { swipeEverySeconds?: number; random?: () => number; closeForcedDoorAfterSeconds?: number } = {},
): Promise<DemoControllers | undefined> {
  const ctx: ServiceContext = {
    db,
    clock: systemClock,
    lang: 'en',
    actor: systemActor('demo'),
    areaId: undefined,
  };
  const devices = (await wgControllers(ctx)).filter((d) => d.Ip === '127.0.0.1' && d.Port);
  if (devices.length === 0) return undefined;
  const controllers: ControllerOptions[] = devices.map((d) => ({
    serial: Number(d.SerialNumber),
    port: d.Port!,
  }));
  const simulator = await WgSimulator.start({ controllers, timeZone: devices[0]!.TimeZone });
  // A real controller keeps its record ring across a Gatehouse restart; the simulator starts empty, so it
  // carries on numbering after what Gatehouse already stored (the unique ring index stays unique).
  for (const d of devices) {
    const cursor = await recordCursor(ctx, d.Id);
    if (cursor && cursor.nextIndex > 1) {
      const c = simulator.controller(Number(d.SerialNumber));
      c.lastIndex = cursor.nextIndex - 1;
      c.readIndex = c.lastIndex;
    }
  }
  const random = options.random ?? Math.random;
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  // A forced door is shut again a little later, as on site: its sensor reports "closed" and the alarm ends.
  const closing = new Set<NodeJS.Timeout>();
  const closeLater = (serial: number, door: number) => {
    const timer = setTimeout(
      () => {
        closing.delete(timer);
        const c = simulator.controllers.get(serial);
        if (c && !c.offline) c.setDoorSensor(door, false);
      },
      (options.closeForcedDoorAfterSeconds ?? 20) * 1000,
    );
    timer.unref();
    closing.add(timer);
  };
  const timer = setInterval(
    () => {
      const c = pick([...simulator.controllers.values()]);
      if (c.offline) return;
      const door = 1 + Math.floor(random() * c.doors);
      const roll = random();
      const cards = c.cards();
      if (roll < 0.03) {
        c.forceDoor(door);
        closeLater(c.serial, door);
      } else if (roll < 0.08) c.pressButton(door);
      else if (roll < 0.25 || cards.length === 0) c.swipe(10_000_000 + Math.floor(random() * 1000), door, 1);
      else c.swipe(pick(cards).card, door, c.doors === 4 ? 1 : 1 + Math.floor(random() * 2));
    },
    (options.swipeEverySeconds ?? 4) * 1000,
  );
  timer.unref();
  return {
    simulator,
    async close() {
      clearInterval(timer);
      for (const t of closing) clearTimeout(t);
      await simulator.close();
    },
  };
}
