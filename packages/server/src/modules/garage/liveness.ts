import { OFFLINE_PORT_STATE } from '@gatehouse/shared';
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Honest socket states (issue 15, "Honest states"; docs/chargers.md, "Liveness"). A socket of a host that talks
 * to Gatehouse over the charging API (chargingSystemType 2) is only as current as the host's connection: while
 * its charge point is offline, or was never connected, the last state stored is stale, and the API shows
 * 255 "unknown / offline" instead (counted in no idle, occupied or fault total). A socket the operator
 * disabled stays disabled: that is Gatehouse's own decision, known whatever the device does.
 * Hosts of other charging system types keep their stored state (no live link tells otherwise).
 */
export const LIVE_LINK_SYSTEM_TYPE = 2;

export interface LivenessColumns {
  State: number;
  Disabled: number | boolean;
  ChargingSystemType: number;
  OcppOnline: number;
}

export function isSocketOffline(row: Omit<LivenessColumns, 'State'>): boolean {
  return row.ChargingSystemType === LIVE_LINK_SYSTEM_TYPE && !row.OcppOnline && !row.Disabled;
}

/** The state the API shows for a socket row (stored state, or 255 when its charge point is offline). */
export function shownState(row: LivenessColumns): number {
  return isSocketOffline(row) ? OFFLINE_PORT_STATE : row.State;
}

/** SQL: the socket (joined with its ChargeHost) shows 255 now. */
export function offlineSocketWhere(eb: ExpressionBuilder<Database, 'ChargeEquipment' | 'ChargeHost'>) {
  return eb.and([
    eb('ChargeHost.ChargingSystemType', '=', LIVE_LINK_SYSTEM_TYPE),
    eb('ChargeHost.OcppOnline', '=', 0),
    eb('ChargeEquipment.Disabled', '=', 0),
  ]);
}
