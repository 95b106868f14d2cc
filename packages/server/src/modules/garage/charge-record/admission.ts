import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { hostInHeatAlarm } from '../charge-host/heat-alarm.ts';
import { zoneUnderEmergencyStop } from '../park-area/emergency-state.ts';
import { zoneAtBudget } from '../park-area/power.ts';

/**
 * Whether a socket may take a new session now, whoever's card: the garage's safety states each refuse starts
 * on what they cover (a host in heat alarm, a zone under emergency stop, a zone at its power budget). Every way a
 * session starts asks here: a swipe on the charger (StartTransaction answered Blocked) and an operator's remote
 * start (refused with the reason), so no path starts past a safety state. docs/garage.md "Safety".
 */
export type StartRefusal = 'overTemperature' | 'emergencyStop' | 'zoneBudget';

/** The socket as the checks see it. */
export interface AdmissionSocket {
  socketId: number;
  hostId: number;
  parkAreaId: number;
  areaId: number;
}

/** A safety state's check: true when it refuses a start on this socket now. */
export type AdmissionCheck = (k: Kysely<Database>, socket: AdmissionSocket) => Promise<boolean>;

// In the order a refusal is reported when several hold: the most urgent first.
const CHECKS: ReadonlyArray<readonly [StartRefusal, AdmissionCheck]> = [
  ['emergencyStop', (k, socket) => zoneUnderEmergencyStop(k, socket.parkAreaId)],
  ['overTemperature', hostInHeatAlarm],
  ['zoneBudget', zoneAtBudget],
];

/** The first safety state that refuses a start on the socket now, or null when it may start. */
export async function startRefusal(k: Kysely<Database>, socketId: number): Promise<StartRefusal | null> {
  const socket = await k
    .selectFrom('ChargeEquipment')
    .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
    .select([
      'ChargeEquipment.Id as socketId',
      'ChargeHost.Id as hostId',
      'ChargeHost.ParkAreaId as parkAreaId',
      'ChargeEquipment.AreaId as areaId',
    ])
    .where('ChargeEquipment.Id', '=', socketId)
    .executeTakeFirst();
  if (!socket) return null;
  for (const [refusal, refuses] of CHECKS) if (await refuses(k, socket)) return refusal;
  return null;
}
