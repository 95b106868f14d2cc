import type { Battery } from './battery.ts';
import type { ChargePointErrorCode, ChargePointStatus } from './ocpp.ts';

export interface ChargePointOptions {
  /** Central system URL without the identity, e.g. ws://127.0.0.1:8080/ocpp. */
  url: string;
  /** The charge point id (Gatehouse: the host's serial number). */
  id: string;
  /** HTTP Basic password (security profile 1); none sends no Authorization header. */
  password?: string;
  connectors: number;
  vendor?: string;
  model?: string;
  /** Wall clock for timestamps (tests pin it). */
  now?: () => number;
  /** Seconds between MeterValues of a running transaction (configuration key MeterValueSampleInterval). */
  meterIntervalSeconds?: number;
  /** Simulated seconds per real second for the battery (demos speed sessions up); 1 is real time. */
  speed?: number;
  /** Run the heartbeat and meter timers (tests drive `advance` by hand instead). */
  timers?: boolean;
  /** Seconds to wait before a new BootNotification when the central system answered interval 0. */
  bootRetrySeconds?: number;
  /** Milliseconds before an unanswered call fails. */
  callTimeoutMs?: number;
  /**
   * It has a temperature sensor: MeterValuesSampledData takes Temperature, and its MeterValues carry it. Without
   * (the default) a list with Temperature is Rejected.
   */
  temperature?: boolean;
  /**
   * It supports smart charging: SupportedFeatureProfiles lists SmartCharging, and it takes TxProfiles
   * (SetChargingProfile, ClearChargingProfile) and draws no more than the limit in force (smart-charging.ts).
   */
  smartCharging?: boolean;
}

export interface ConnectorState {
  id: number;
  status: ChargePointStatus;
  errorCode: ChargePointErrorCode;
  vendorErrorCode: string | undefined;
  plugged: boolean;
  /** Set by ChangeAvailability; an Inoperative connector reports Unavailable. */
  operative: boolean;
  /** Inoperative was asked during a transaction: applied when it ends (ChangeAvailability "Scheduled"). */
  inoperativeScheduled: boolean;
  /** Lifetime energy register in Wh (fractional inside, rounded when reported). */
  registerWh: number;
  /** The charger's bulk rate while a bike is plugged in (W). */
  bulkW: number;
  /**
   * Set by `overdraw`: the power it draws while charging whatever its bulk rate or a smart-charging limit says (a
   * charger that takes more than its share); undefined: it keeps to them.
   */
  overdrawW: number | undefined;
  powerW: number;
  battery: Battery | undefined;
  transaction: Transaction | undefined;
  /** Set by `overheat`: the temperature its sensor reads (°C) instead of the pack's warmth; undefined: normal. */
  temperatureC: number | undefined;
}

export interface Transaction {
  /** Local reference, stable while the central system's id is not known yet (started offline). */
  ref: number;
  /** The central system's transactionId, once StartTransaction was answered. */
  id: number | undefined;
  idTag: string;
  meterStartWh: number;
  startedAt: number;
}
