import { HOST_ONLINE_WINDOW_MS, OFFLINE_PORT_STATE, isHostOnline } from '@gatehouse/shared';
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { isoOrNull } from '../../../platform/instants.ts';

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

/**
 * Whether a host is online now. A charging-API host is online exactly while its charge point is connected
 * (`OcppOnline`): "reported within 5 minutes" would call a charger that hung up a minute ago online while its
 * sockets already read "unknown / offline". Other hosts have no live link: their last report within the window
 * (`HOST_ONLINE_WINDOW_MS`) is all that is known.
 */
export function isHostRowOnline(
  row: { ChargingSystemType: number; OcppOnline: number; LastSeenAt: number | null },
  now: number,
): boolean {
  return row.ChargingSystemType === LIVE_LINK_SYSTEM_TYPE
    ? row.OcppOnline === 1
    : isHostOnline(row.LastSeenAt, now);
}

/** SQL: the ChargeHost row is online now (isHostRowOnline). */
export function onlineHostWhere(eb: ExpressionBuilder<Database, 'ChargeHost'>, now: number) {
  return eb.or([
    eb.and([
      eb('ChargeHost.ChargingSystemType', '=', LIVE_LINK_SYSTEM_TYPE),
      eb('ChargeHost.OcppOnline', '=', 1),
    ]),
    eb.and([
      eb('ChargeHost.ChargingSystemType', '!=', LIVE_LINK_SYSTEM_TYPE),
      eb('ChargeHost.LastSeenAt', '>=', now - HOST_ONLINE_WINDOW_MS),
    ]),
  ]);
}

/** The host's live-link fields of the API (shared `hostLinkFields`): link, offline since, device identity. */
export function hostLink(row: {
  ChargingSystemType: number;
  OcppOnline: number;
  OcppOfflineAt: number | null;
  OcppBootInfo: string | null;
}): { LiveLink: boolean; OfflineSince: string | null; Device: DeviceInfo | null } {
  const live = row.ChargingSystemType === LIVE_LINK_SYSTEM_TYPE;
  return {
    LiveLink: live,
    OfflineSince: live && row.OcppOnline !== 1 ? isoOrNull(row.OcppOfflineAt) : null,
    Device: live ? bootInfo(row.OcppBootInfo) : null,
  };
}

export interface DeviceInfo {
  Vendor: string;
  Model: string;
  Firmware: string | null;
  BootedAt: string | null;
}

/** What a charging-API host's charge point said about itself at its last boot (ChargeHost.OcppBootInfo). */
function bootInfo(json: string | null): DeviceInfo | null {
  if (!json) return null;
  try {
    const boot = JSON.parse(json) as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
    return {
      Vendor: text(boot.chargePointVendor) ?? '',
      Model: text(boot.chargePointModel) ?? '',
      Firmware: text(boot.firmwareVersion),
      BootedAt: typeof boot.bootedAt === 'number' ? isoOrNull(boot.bootedAt) : null,
    };
  } catch {
    return null;
  }
}
