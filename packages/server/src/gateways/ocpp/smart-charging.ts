import type { ClearChargingProfileReq, SetChargingProfileReq } from './messages.gen.ts';

/**
 * What the zone power budget asks of a SmartCharging charger (docs/chargers.md, "Zone power budget"), in OCPP
 * 1.6 terms. Pure. A limit is a TxProfile on the running transaction: it ends with the transaction, so a
 * forgotten limit never outlives the session it was meant for. Its chargingProfileId is the transaction's id
 * (Gatehouse's session id, unique on every charger), so a new limit for the same session replaces the one
 * before (OCPP 1.6: a profile with the same chargingProfileId replaces it), and ClearChargingProfile by that id
 * takes back exactly Gatehouse's limit, never a profile someone else set.
 */

/** The stack level of Gatehouse's TxProfiles (a TxProfile outranks any TxDefaultProfile whatever its level). */
export const TX_LIMIT_STACK_LEVEL = 0;

/**
 * SetChargingProfile: the transaction on this connector draws at most `limitW` watts from now on. Relative: the
 * one period starts at the transaction's start, so it applies at once; no duration: until the transaction ends
 * or the limit is cleared.
 */
export function txPowerLimit(
  connectorId: number,
  transactionId: number,
  limitW: number,
): SetChargingProfileReq {
  return {
    connectorId,
    csChargingProfiles: {
      chargingProfileId: transactionId,
      transactionId,
      stackLevel: TX_LIMIT_STACK_LEVEL,
      chargingProfilePurpose: 'TxProfile',
      chargingProfileKind: 'Relative',
      chargingSchedule: {
        chargingRateUnit: 'W',
        // Whole watts: the schema takes multiples of 0.1.
        chargingSchedulePeriod: [{ startPeriod: 0, limit: Math.max(0, Math.floor(limitW)) }],
      },
    },
  };
}

/** ClearChargingProfile of the limit txPowerLimit set for this transaction (by its id only). */
export function clearTxPowerLimit(transactionId: number): ClearChargingProfileReq {
  return { id: transactionId };
}
