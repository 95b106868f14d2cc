import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { startDemoChargePoints } from '../src/demo/charge-points.ts';
import { describeEachDb } from './support/harness.ts';

/*
 * A demo restart keeps the sessions its charge points carry (issue 27: every restart ended the running sessions
 * as "not confirmed" and printed a warning for each). The demo's simulated charge points live in the server's
 * process, so they restart with it; a real charger keeps running while the central system restarts. The demo
 * therefore starts them with the transactions the database says they were running, and their boot reports those
 * sockets charging: nothing is closed, now or after the reconciliation's wait.
 */

describeEachDb('demo charge points across a server restart', (h) => {
  it('start with the sessions they were running: the boot keeps them open and charging', async () => {
    const k = h().db.kysely;
    await h().app.listen({ port: 0, host: '127.0.0.1' });
    const port = (h().app.server.address() as AddressInfo).port;
    // The sessions running on the demo's charging-API hosts when the server stopped.
    const running = await k
      .selectFrom('ChargeRecord')
      .innerJoin('ChargeEquipment', 'ChargeEquipment.Id', 'ChargeRecord.ChargeEquipmentId')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .select(['ChargeRecord.Id', 'ChargeEquipment.Id as SocketId'])
      .where('ChargeRecord.EndAt', 'is', null)
      .where('ChargeHost.ChargingSystemType', '=', 2)
      .where('ChargeHost.Disabled', '=', 0)
      .where('ChargeEquipment.Disabled', '=', 0)
      .execute();
    expect(running.length).toBeGreaterThan(3);
    const demo = await startDemoChargePoints(h().db, `ws://127.0.0.1:${port}/ocpp`, {
      // No riders arrive or leave during the test.
      everySeconds: 3600,
      arrivals: false,
      random: () => 0.5,
    });
    try {
      // Every charge point booted and reported its connectors.
      const reported = async () =>
        (
          await k
            .selectFrom('ChargeEquipment')
            .select(['Id', 'OcppStatus'])
            .where(
              'Id',
              'in',
              running.map((r) => r.SocketId),
            )
            .execute()
        ).filter((s) => s.OcppStatus !== null);
      const until = Date.now() + 20_000;
      while ((await reported()).length < running.length && Date.now() < until)
        await new Promise((r) => setTimeout(r, 50));
      const sockets = await reported();
      expect(sockets).toHaveLength(running.length);
      expect(sockets.every((s) => ['Charging', 'SuspendedEV'].includes(s.OcppStatus!))).toBe(true);
      const open = async () =>
        (
          await k
            .selectFrom('ChargeRecord')
            .select('Id')
            .where(
              'Id',
              'in',
              running.map((r) => r.Id),
            )
            .where('EndAt', 'is', null)
            .execute()
        ).length;
      expect(await open()).toBe(running.length);
      // Nor after the wait a reconciliation gives a queued stop.
      h().clock.advance(3 * 60_000);
      expect(await h().ocpp.reconcileSessions()).toEqual([]);
      expect(await open()).toBe(running.length);
    } finally {
      await demo?.close();
    }
  });
});
