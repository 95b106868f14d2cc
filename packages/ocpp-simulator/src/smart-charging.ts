/**
 * OCPP 1.6 smart charging as far as an e-bike charger takes it (a charge point told it supports SmartCharging:
 * `smartCharging: true`, CLI `--smart-charging`): TxProfiles on a running transaction, set by
 * SetChargingProfile and taken back by ClearChargingProfile. A TxProfile applies to its transaction only and
 * ends with it. The limit in force is the highest stack level's, in the schedule period reached now; a limit in
 * amperes is read as single-phase at 230 V (an e-bike charger's supply). Pure bookkeeping: the charge point
 * draws no more than `limitW` (charge-point.ts), unless it was told to draw more (its `overdraw` control).
 */

/** Volts per ampere of a single-phase limit. */
export const SUPPLY_VOLTS = 230;

interface SchedulePeriod {
  startPeriod: number;
  limit: number;
  numberPhases?: number;
}

interface StoredProfile {
  id: number;
  connectorId: number;
  transactionId: number;
  stackLevel: number;
  unit: 'A' | 'W';
  periods: SchedulePeriod[];
}

/** What SetChargingProfile carries (the parts read here; strict mode checked the rest). */
export interface SetChargingProfileParams {
  connectorId: number;
  csChargingProfiles: {
    chargingProfileId: number;
    transactionId?: number;
    stackLevel: number;
    chargingProfilePurpose: 'ChargePointMaxProfile' | 'TxDefaultProfile' | 'TxProfile';
    chargingProfileKind: 'Absolute' | 'Recurring' | 'Relative';
    chargingSchedule: { chargingRateUnit: 'A' | 'W'; chargingSchedulePeriod: SchedulePeriod[] };
  };
}

export interface ClearChargingProfileParams {
  id?: number;
  connectorId?: number;
  chargingProfilePurpose?: 'ChargePointMaxProfile' | 'TxDefaultProfile' | 'TxProfile';
  stackLevel?: number;
}

export class ChargingProfiles {
  private readonly profiles = new Map<number, StoredProfile>();

  /**
   * SetChargingProfile. Only TxProfiles are taken: on a connector whose running transaction is the one named
   * (or, without a transactionId, whatever runs there); Rejected when nothing runs there, as the specification
   * says of a TxProfile without a transaction. A profile with the same id, or the same connector and stack
   * level, replaces the one before.
   */
  set(
    params: SetChargingProfileParams,
    runningTransaction: (connectorId: number) => number | undefined,
  ): 'Accepted' | 'Rejected' | 'NotSupported' {
    const profile = params.csChargingProfiles;
    if (profile.chargingProfilePurpose !== 'TxProfile') return 'NotSupported';
    const transactionId = runningTransaction(params.connectorId);
    if (params.connectorId === 0 || transactionId === undefined) return 'Rejected';
    if (profile.transactionId !== undefined && profile.transactionId !== transactionId) return 'Rejected';
    const periods = [...profile.chargingSchedule.chargingSchedulePeriod].sort(
      (a, b) => a.startPeriod - b.startPeriod,
    );
    if (periods.length === 0) return 'Rejected';
    for (const [id, p] of this.profiles)
      if (p.connectorId === params.connectorId && p.stackLevel === profile.stackLevel)
        this.profiles.delete(id);
    this.profiles.set(profile.chargingProfileId, {
      id: profile.chargingProfileId,
      connectorId: params.connectorId,
      transactionId,
      stackLevel: profile.stackLevel,
      unit: profile.chargingSchedule.chargingRateUnit,
      periods,
    });
    return 'Accepted';
  }

  /** ClearChargingProfile: every profile matching all the criteria given; Unknown when none did. */
  clear(params: ClearChargingProfileParams): 'Accepted' | 'Unknown' {
    let cleared = 0;
    for (const [id, p] of this.profiles) {
      if (params.id !== undefined && p.id !== params.id) continue;
      if (
        params.connectorId !== undefined &&
        params.connectorId !== 0 &&
        p.connectorId !== params.connectorId
      )
        continue;
      if (params.chargingProfilePurpose !== undefined && params.chargingProfilePurpose !== 'TxProfile')
        continue;
      if (params.stackLevel !== undefined && p.stackLevel !== params.stackLevel) continue;
      this.profiles.delete(id);
      cleared += 1;
    }
    return cleared > 0 ? 'Accepted' : 'Unknown';
  }

  /** A transaction ended: its TxProfiles end with it. */
  transactionEnded(transactionId: number): void {
    for (const [id, p] of this.profiles) if (p.transactionId === transactionId) this.profiles.delete(id);
  }

  /** Every profile is lost (a power cycle without memory). */
  reset(): void {
    this.profiles.clear();
  }

  /**
   * The limit in force on a connector's transaction (W), `secondsIn` seconds after it started, or undefined
   * when none: the highest stack level's profile, the last period that has begun.
   */
  limitW(connectorId: number, transactionId: number, secondsIn: number): number | undefined {
    const mine = [...this.profiles.values()]
      .filter((p) => p.connectorId === connectorId && p.transactionId === transactionId)
      .sort((a, b) => b.stackLevel - a.stackLevel);
    const top = mine[0];
    if (!top) return undefined;
    const period =
      top.periods.filter((p) => p.startPeriod <= Math.max(0, secondsIn)).at(-1) ?? top.periods[0]!;
    return top.unit === 'W' ? period.limit : period.limit * SUPPLY_VOLTS * (period.numberPhases ?? 1);
  }
}
