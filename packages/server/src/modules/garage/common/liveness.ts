import { OFFLINE_PORT_STATE } from '@gatehouse/shared';
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { isoOrNull } from '../../../platform/instants.ts';

/**
 * Honest socket states (issue 15, "Honest states"; issue 21, "Only what is known is live"; docs/chargers.md,
 * "Liveness"). A socket's state is only known while a protocol reports it: the charging API (chargingSystemType
 * 2) while its charge point is connected. A socket of such a host that is offline or never connected, and any
 * socket of a host of another type (no protocol drives those: nothing ever reports their state), shows 255
 * "unknown / not connected" instead of its stored state, counted in no idle, occupied or fault total, and its
 * sessions are not counted as charging. A socket the operator disabled stays disabled: that is Gatehouse's
 * own decision, known whatever the device does.
 */
export const LIVE_LINK_SYSTEM_TYPE = 2;

export interface LivenessColumns {
  State: number;
  Disabled: number | boolean;
  ChargingSystemType: number;
  OcppOnline: number;
}

/** The socket's state is unknown now: no connected protocol reports it (and the operator did not disable it). */
export function isSocketOffline(row: Omit<LivenessColumns, 'State'>): boolean {
  return !row.Disabled && !(row.ChargingSystemType === LIVE_LINK_SYSTEM_TYPE && row.OcppOnline === 1);
}

/** The state the API shows for a socket row (stored state, or 255 when nothing connected reports it). */
export function shownState(row: LivenessColumns): number {
  return isSocketOffline(row) ? OFFLINE_PORT_STATE : row.State;
}

/** SQL: the socket (joined with its ChargeHost) shows 255 now (isSocketOffline). */
export function offlineSocketWhere(eb: ExpressionBuilder<Database, 'ChargeEquipment' | 'ChargeHost'>) {
  return eb.and([
    eb('ChargeEquipment.Disabled', '=', 0),
    eb.or([
      eb('ChargeHost.ChargingSystemType', '!=', LIVE_LINK_SYSTEM_TYPE),
      eb('ChargeHost.OcppOnline', '!=', 1),
    ]),
  ]);
}

/**
 * Whether a host is online now: exactly while its charge point is connected over the charging API
 * (`OcppOnline`). "Reported within 5 minutes" would call a charger that hung up a minute ago online while its
 * sockets already read "unknown"; a host of another type has no link at all, so it is never online (its seeded
 * or imported `LastSeenAt` says nothing about now).
 */
export function isHostRowOnline(
  row: { ChargingSystemType: number; OcppOnline: number; LastSeenAt: number | null },
  _now: number,
): boolean {
  return row.ChargingSystemType === LIVE_LINK_SYSTEM_TYPE && row.OcppOnline === 1;
}

/** SQL: the ChargeHost row is online now (isHostRowOnline). */
export function onlineHostWhere(eb: ExpressionBuilder<Database, 'ChargeHost'>, _now: number) {
  return eb.and([
    eb('ChargeHost.ChargingSystemType', '=', LIVE_LINK_SYSTEM_TYPE),
    eb('ChargeHost.OcppOnline', '=', 1),
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
