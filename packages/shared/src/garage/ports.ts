/**
 * Charge-port states grouped the way the garage counts them: a zone's occupancy, the dashboard's summary
 * and the socket grid's legend read these groups (the colours are on the chargePortState enumeration).
 */
export type PortStateGroup = 'idle' | 'occupied' | 'fault' | 'disabled' | 'offline';

/** The port needs a technician. */
export const FAULT_PORT_STATES: readonly number[] = [4, 6, 7, 8, 9, 10];
export const IDLE_PORT_STATE = 0;
export const DISABLED_PORT_STATE = 12;
/**
 * Shown, never stored: the socket's charge point is offline or never connected, so its last state is stale.
 * Counted in no group of the ones that describe the port (idle, occupied, fault): it is simply unknown.
 */
export const OFFLINE_PORT_STATE = 255;

export function portStateGroup(state: number): PortStateGroup {
  if (state === IDLE_PORT_STATE) return 'idle';
  if (state === DISABLED_PORT_STATE) return 'disabled';
  if (state === OFFLINE_PORT_STATE) return 'offline';
  if (FAULT_PORT_STATES.includes(state)) return 'fault';
  // Occupied (1, 2, 3, 5, 11, 170: charging, plugged in charged or not, float charge, bound, waiting for a
  // card), and any state a newer device reports that we do not know yet: never counted as free.
  return 'occupied';
}
