import type { WgSimulator } from '@gatehouse/wg-simulator';
import type { Db } from '../../src/db/database.ts';

/**
 * Makes these controllers the whole WG fleet of the test's database: every other WG controller is disabled
 * (nothing else answers), and each of these is pointed at its simulated controller's address.
 */
export async function fleetOfSimulated(
  db: Db,
  sim: WgSimulator,
  devices: readonly { Id: number; SerialNumber: string }[],
): Promise<void> {
  const k = db.kysely;
  await k
    .updateTable('AccessControlDevice')
    .set({ Disabled: 1 })
    .where(
      'Id',
      'not in',
      devices.map((d) => d.Id),
    )
    .where('Protocol', '=', 0)
    .execute();
  for (const d of devices) {
    const { host, port } = sim.address(Number(d.SerialNumber));
    await k.updateTable('AccessControlDevice').set({ Ip: host, Port: port }).where('Id', '=', d.Id).execute();
  }
}
