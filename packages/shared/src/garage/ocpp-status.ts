/**
 * OCPP 1.6 StatusNotification → the spec's charge-port states (chargePortState). One pure function, used by the
 * central system for every socket report and documented as a table in docs/chargers.md; the tests walk the
 * whole table. Values are the OCPP 1.6 edition 2 enumerations (ChargePointStatus, ChargePointErrorCode).
 */

export const OCPP_CHARGE_POINT_STATUSES = [
  'Available',
  'Preparing',
  'Charging',
  'SuspendedEVSE',
  'SuspendedEV',
  'Finishing',
  'Reserved',
  'Unavailable',
  'Faulted',
] as const;
export type OcppChargePointStatus = (typeof OCPP_CHARGE_POINT_STATUSES)[number];

export const OCPP_ERROR_CODES = [
  'ConnectorLockFailure',
  'EVCommunicationError',
  'GroundFailure',
  'HighTemperature',
  'InternalError',
  'LocalListConflict',
  'NoError',
  'OtherError',
  'OverCurrentFailure',
  'PowerMeterFailure',
  'PowerSwitchFailure',
  'ReaderFailure',
  'ResetFailure',
  'UnderVoltage',
  'OverVoltage',
  'WeakSignal',
] as const;
export type OcppErrorCode = (typeof OCPP_ERROR_CODES)[number];

/**
 * `vendorErrorCode` values for the e-bike faults the spec names and OCPP has no code for. OCPP leaves
 * vendorErrorCode free text (50 characters); these are Gatehouse's vocabulary, matched case-insensitively,
 * and the simulator sends them. A charger vendor with other codes adds aliases here.
 */
export const EBIKE_VENDOR_ERROR_CODES = {
  RelayStuck: 9,
  DoorSensorFault: 10,
  FuseBlown: 8,
  MemoryFault: 6,
  SafetyDoorStuck: 7,
} as const;
export type EbikeVendorErrorCode = keyof typeof EBIKE_VENDOR_ERROR_CODES;

/**
 * Below this power (W) a Charging connector counts as float charge (5): an e-bike charger in its
 * constant-voltage tail draws a few watts to top the pack up; 100–400 W is bulk charging.
 */
export const FLOAT_CHARGE_MAX_W = 30;

export interface OcppStatusReport {
  status: OcppChargePointStatus;
  errorCode: OcppErrorCode;
  vendorErrorCode?: string;
  /** Latest Power.Active.Import of the connector's running transaction, when a MeterValues gave one. */
  powerW?: number;
  /** The transaction that just ended on this connector ended because the battery was full. */
  endedFull?: boolean;
}

const VENDOR_CODES = new Map<string, number>(
  Object.entries(EBIKE_VENDOR_ERROR_CODES).map(([code, state]) => [code.toLowerCase(), state]),
);

/** The port state an e-bike vendor error code names, or undefined for a code Gatehouse does not know. */
export function vendorFaultState(vendorErrorCode: string | undefined): number | undefined {
  return vendorErrorCode ? VENDOR_CODES.get(vendorErrorCode.trim().toLowerCase()) : undefined;
}

/**
 * The chargePortState of one connector (connectorId ≥ 1) from its StatusNotification.
 *
 * Only `Faulted` makes a fault state: OCPP 1.6 lets a connector report an errorCode with another status as a
 * warning that does not stop it (e.g. EVCommunicationError with SuspendedEVSE), so then the status decides.
 * Within `Faulted`, a known e-bike vendorErrorCode is the most precise and wins, then the OCPP errorCode.
 */
export function portStateFromOcpp(report: OcppStatusReport): number {
  switch (report.status) {
    case 'Available':
      return 0;
    case 'Preparing':
      // The bike is plugged in (or a card was shown) and no transaction runs yet: on a card-operated e-bike
      // socket that means it waits for the swipe.
      return 170;
    case 'Charging':
      return report.powerW !== undefined && report.powerW < FLOAT_CHARGE_MAX_W ? 5 : 1;
    case 'SuspendedEV':
      // The bike draws no power while the charger offers it: for an e-bike pack that is a full battery.
      return 3;
    case 'SuspendedEVSE':
      // The charger withholds power (load management, remote suspension): plugged in, not charging.
      return 2;
    case 'Finishing':
      // The transaction ended, the plug is still in. Full when the session ended that way.
      return report.endedFull ? 3 : 2;
    case 'Reserved':
      return 11;
    case 'Unavailable':
      return 12;
    case 'Faulted':
      return faultState(report.errorCode, report.vendorErrorCode);
  }
}

function faultState(errorCode: OcppErrorCode, vendorErrorCode: string | undefined): number {
  const vendor = vendorFaultState(vendorErrorCode);
  if (vendor !== undefined) return vendor;
  switch (errorCode) {
    case 'ConnectorLockFailure':
      // E-bike sockets sit behind a locked safety door; its lock is the connector lock.
      return 7;
    case 'PowerSwitchFailure':
      // "Failure to control power switch": the switch is the port's relay, typically welded.
      return 9;
    case 'OverCurrentFailure':
      // "Over current protection device has tripped": the port's fuse or contact.
      return 8;
    default:
      // InternalError and the rest: a port fault without a finer state (memory needs the vendor code: a
      // software error is not a damaged memory chip).
      return 4;
  }
}

/** What connector 0 (the charge point as a whole) reports, kept on the host. */
export type OcppHostStatus = 'Available' | 'Unavailable' | 'Faulted';

/**
 * Connector 0 may only be Available, Unavailable or Faulted (OCPP 1.6, StatusNotification); anything else a charge point
 * sends for it is read as Available rather than refused, since the call itself is schema-valid.
 */
export function hostStatusFromOcpp(status: OcppChargePointStatus): OcppHostStatus {
  return status === 'Unavailable' || status === 'Faulted' ? status : 'Available';
}
