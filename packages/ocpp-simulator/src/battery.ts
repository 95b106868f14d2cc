/**
 * A plausible e-bike battery on a charger: constant power (the charger's bulk rate, 100–400 W) until 80 %,
 * then a linear taper to a trickle, as the constant-voltage phase of a lithium pack does; nothing at 100 %.
 * Pure, so tests and the simulator agree on the numbers.
 */

/** State of charge where the taper starts. */
export const TAPER_FROM_SOC = 0.8;
/** Power at the very end of the taper (W). */
export const TRICKLE_W = 5;

export interface Battery {
  /** Usable capacity in Wh (a 36 V 14 Ah pack is about 500 Wh). */
  capacityWh: number;
  /** State of charge, 0…1. */
  soc: number;
}

/** The power the pack draws now, for a charger whose bulk rate is `bulkW`. */
export function chargePower(battery: Battery, bulkW: number): number {
  if (battery.soc >= 1) return 0;
  if (battery.soc < TAPER_FROM_SOC) return bulkW;
  const left = (1 - battery.soc) / (1 - TAPER_FROM_SOC);
  return TRICKLE_W + (bulkW - TRICKLE_W) * left;
}

/**
 * Charges for `seconds` in one-second steps (so the taper is followed, not jumped over); returns the energy
 * delivered in Wh (fractional: the meter register rounds) and the power at the end.
 */
export function charge(
  battery: Battery,
  bulkW: number,
  seconds: number,
): { energyWh: number; powerW: number } {
  let energyWh = 0;
  for (let s = 0; s < seconds && battery.soc < 1; s++) {
    const wh = chargePower(battery, bulkW) / 3600;
    energyWh += wh;
    battery.soc = Math.min(1, battery.soc + wh / battery.capacityWh);
  }
  return { energyWh, powerW: chargePower(battery, bulkW) };
}
