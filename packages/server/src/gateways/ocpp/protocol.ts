import { STOP_REASON } from '@gatehouse/shared';
import type { MeterValuesReq, StopTransactionReq } from './messages.gen.ts';

/**
 * What OCPP 1.6J means, apart from any connection (docs/chargers.md): the URL charge points connect under,
 * how far a charger's clock is believed, its stop reasons and meter samples read as Gatehouse's terms. Pure;
 * every other file of the gateway imports from here, nothing here imports them (no import circle).
 */

/** The URL path charge points connect under: `/ocpp/{chargePointId}`. */
export const OCPP_PATH = '/ocpp';

/** `/ocpp/<id>` exactly one segment deep (ocpp-rpc takes the last segment as the identity). */
export function isOcppPath(url: string | undefined): boolean {
  if (!url) return false;
  const path = url.split('?')[0]!;
  return path.startsWith(`${OCPP_PATH}/`) && path.length > OCPP_PATH.length + 1;
}

/** How many heartbeat intervals of silence make a charge point offline (issue 13: three). */
export const MISSED_HEARTBEATS = 3;

/** LastSeenAt is written at most this often per host; the in-memory connection has the exact time. */
export const LAST_SEEN_WRITE_MS = 30_000;

/** transactionId answered to a refused StartTransaction: no session exists, its StopTransaction finds none. */
export const REFUSED_TRANSACTION_ID = 0;

/** How far back a charge point's timestamp is believed (an offline queue holds messages this long at most). */
export const MAX_DEVICE_CLOCK_LAG_MS = 7 * 24 * 3_600_000;

/**
 * A charge point's timestamp, as far as it can be believed: one in the future or older than
 * MAX_DEVICE_CLOCK_LAG_MS is a charger whose clock is not set (before its first sync), and reads as now.
 * Without this, one report from a clock set ahead would make every later, correct one look stale, and a clock
 * at 1970 would start a 56-year session.
 */
export function deviceTime(timestamp: string | undefined, now: number): number {
  const at = timestamp === undefined ? Number.NaN : Date.parse(timestamp);
  return Number.isFinite(at) && at <= now && at >= now - MAX_DEVICE_CLOCK_LAG_MS ? at : now;
}

/**
 * chargeStopReason from StopTransaction.reason (absent means Local) and what the connector showed before:
 * SuspendedEV (the pack stopped drawing) means the battery was full.
 */
export function stopReasonFromOcpp(reason: StopTransactionReq['reason'], lastStatus: string | null): number {
  if (lastStatus === 'SuspendedEV') return STOP_REASON.fullyCharged;
  switch (reason) {
    case 'EmergencyStop':
    case 'Other':
      return STOP_REASON.deviceFault;
    case 'PowerLoss':
    case 'HardReset':
    case 'SoftReset':
    case 'Reboot':
      return STOP_REASON.powerFailure;
    default:
      // Local, EVDisconnected, UnlockCommand, Remote (the user's app; an operator's power-off is the stop
      // request Gatehouse stored, which wins over this), DeAuthorized.
      return STOP_REASON.byUser;
  }
}

type MeterValue = MeterValuesReq['meterValue'][number];
type SampledValue = MeterValue['sampledValue'][number];

/**
 * A sampled value as Wh or W. OCPP defaults: measurand Energy.Active.Import.Register, unit Wh. Signed data and
 * per-phase values (the total comes without a phase) are skipped.
 */
export function readSample(sample: SampledValue): { measurand: string; value: number } | undefined {
  if (sample.format === 'SignedData' || sample.phase !== undefined) return undefined;
  const measurand = sample.measurand ?? 'Energy.Active.Import.Register';
  const raw = Number(sample.value);
  if (!Number.isFinite(raw)) return undefined;
  const unit = sample.unit ?? (measurand.startsWith('Energy') ? 'Wh' : 'W');
  const value = unit === 'kWh' || unit === 'kW' ? raw * 1000 : raw;
  return { measurand, value };
}

/**
 * The newest energy register (Wh) and power (W) in a MeterValues or a StopTransaction's transactionData, and the
 * charger's timestamp of that power (how old the reading is: a queued MeterValues arrives late).
 */
export function latestReadings(values: readonly MeterValue[]): {
  registerWh?: number;
  /** The charger's timestamp of the register (a session's meter folds it at this instant). */
  registerAt?: string;
  powerW?: number;
  powerAt?: string;
} {
  const sorted = [...values].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
  const out: { registerWh?: number; registerAt?: string; powerW?: number; powerAt?: string } = {};
  for (const mv of sorted) {
    for (const sample of mv.sampledValue) {
      const read = readSample(sample);
      if (!read) continue;
      if (read.measurand === 'Energy.Active.Import.Register') {
        out.registerWh = Math.round(read.value);
        out.registerAt = mv.timestamp;
      }
      if (read.measurand === 'Power.Active.Import') {
        out.powerW = read.value;
        out.powerAt = mv.timestamp;
      }
    }
  }
  return out;
}

/** A Temperature sample as Gatehouse reads it: °C, where the charger took it, when. */
export interface TemperatureSample {
  temperatureC: number;
  location: string | null;
  /** The charger's timestamp of the meter value (deviceTime). */
  at: number;
}

/**
 * A Temperature sample in °C (OCPP 1.6 UnitOfMeasure): `Celsius` (also the schema's misspelt `Celcius`) and no
 * unit at all are degrees Celsius, `Fahrenheit` and `K` (kelvin) are converted. Any other unit says the value is
 * not a temperature: it is skipped, as is signed data. Every finite value counts, however hot: a garage would
 * rather stop a session on a sensor that reads 600 °C than ignore the one reading that was real.
 */
export function readTemperature(sample: SampledValue): number | undefined {
  if (sample.measurand !== 'Temperature' || sample.format === 'SignedData') return undefined;
  const raw = Number(sample.value);
  if (!Number.isFinite(raw)) return undefined;
  switch (sample.unit) {
    case undefined:
    case 'Celsius':
    case 'Celcius':
      return raw;
    case 'Fahrenheit':
      return ((raw - 32) * 5) / 9;
    case 'K':
      return raw - 273.15;
    default:
      return undefined;
  }
}

/** The hottest Temperature sample of a MeterValues (any location: the charger's body, the pack, the outlet). */
export function hottestTemperature(
  values: readonly MeterValue[],
  now: number,
): TemperatureSample | undefined {
  let hottest: TemperatureSample | undefined;
  for (const mv of values) {
    for (const sample of mv.sampledValue) {
      const celsius = readTemperature(sample);
      if (celsius === undefined || (hottest && hottest.temperatureC >= celsius)) continue;
      hottest = {
        temperatureC: celsius,
        location: sample.location ?? null,
        at: deviceTime(mv.timestamp, now),
      };
    }
  }
  return hottest;
}
