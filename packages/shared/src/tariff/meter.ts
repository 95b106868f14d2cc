import type { MeterSample, PowerBand } from './tariff.ts';

/**
 * What the engine reads from a session's meter samples: the energy, and the sustained power that chooses a
 * power band. docs/garage.md ("Tariff dimensions") states the rules.
 */

/** How long a power must be held to count as the session's sustained power: five minutes. */
export const SUSTAINED_POWER_WINDOW_MS = 5 * 60_000;
const MS_PER_HOUR = 3_600_000n;

function assertWhole(name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative integer, got ${String(value)}`);
}

/**
 * Checks the samples of a session from `startAt` to `endAt`: instants strictly ascending inside the session,
 * register readings whole Wh that never go down. The first sample is the register at the start of what is
 * measured (OCPP's meterStart); energy before it is not known to the engine.
 */
export function assertSamples(samples: readonly MeterSample[], startAt: number, endAt: number): void {
  if (!Array.isArray(samples)) throw new RangeError('Samples must be a list');
  samples.forEach((s, i) => {
    assertWhole(`Samples[${i}].At`, s.At);
    assertWhole(`Samples[${i}].EnergyWh`, s.EnergyWh);
    if (s.At < startAt || s.At > endAt)
      throw new RangeError(`Samples[${i}].At is outside the session (StartAt to EndAt)`);
    const before = samples[i - 1];
    if (before && s.At <= before.At) throw new RangeError(`Samples[${i}].At is not after the sample before`);
    if (before && s.EnergyWh < before.EnergyWh)
      throw new RangeError(`Samples[${i}].EnergyWh is below the sample before: a register never goes down`);
  });
}

/** Energy the samples measured, in Wh: the last register reading minus the first (0 for fewer than two). */
export function samplesEnergyWh(samples: readonly MeterSample[]): number {
  if (samples.length < 2) return 0;
  return samples[samples.length - 1]!.EnergyWh - samples[0]!.EnergyWh;
}

/** Mean power between two samples from the register, in whole watts rounded down. */
export function meanPowerW(a: MeterSample, b: MeterSample): number {
  return Number((BigInt(b.EnergyWh - a.EnergyWh) * MS_PER_HOUR) / BigInt(b.At - a.At));
}

/**
 * The session's sustained power, in W: the highest power it held for a whole window of five minutes. The
 * power between two consecutive samples is their mean power from the register (whole watts, rounded down),
 * so a spike between readings never counts and the result depends on the register only. A window's power
 * is the lowest interval power in it; the sustained power is the highest window power over every window of
 * five minutes inside the samples. 0 when the samples span less than five minutes.
 *
 * Computed over runs of consecutive intervals spanning at least five minutes (any window lies across such a
 * run, and any such run contains a window), the shortest run from each interval: a longer one only adds
 * intervals, which can only lower its lowest power.
 */
export function sustainedPowerW(samples: readonly MeterSample[]): number {
  // Each interval's power once: a session read every 10 s has thousands of samples, 30 to a window.
  const powers = samples.slice(1).map((s, i) => meanPowerW(samples[i]!, s));
  let best = 0;
  for (let i = 0; i + 1 < samples.length; i++) {
    let lowest = Number.POSITIVE_INFINITY;
    for (let j = i; j + 1 < samples.length; j++) {
      lowest = Math.min(lowest, powers[j]!);
      if (lowest <= best) break;
      if (samples[j + 1]!.At - samples[i]!.At >= SUSTAINED_POWER_WINDOW_MS) {
        best = lowest;
        break;
      }
    }
  }
  return best;
}

/** Checks power bands: at least one, each up to a positive whole number of W, ascending, prices in cents. */
export function assertPowerBands(bands: readonly PowerBand[]): void {
  if (!Array.isArray(bands) || bands.length === 0)
    throw new RangeError('PowerBands must list at least one band (or be null)');
  bands.forEach((b, i) => {
    assertWhole(`PowerBands[${i}].UpToW`, b.UpToW);
    assertWhole(`PowerBands[${i}].PriceCents`, b.PriceCents);
    if (b.UpToW === 0) throw new RangeError(`PowerBands[${i}].UpToW must be above 0 W`);
    if (i > 0 && b.UpToW <= bands[i - 1]!.UpToW)
      throw new RangeError(`PowerBands must ascend: PowerBands[${i}].UpToW is not above the band before`);
  });
}

/**
 * The band a sustained power falls in: the first whose UpToW is at least the power (a band includes its
 * UpToW). Power above the last band's UpToW is priced at the last band, so every session finds a price.
 */
export function bandIndexFor(bands: readonly PowerBand[], powerW: number): number {
  const index = bands.findIndex((b) => powerW <= b.UpToW);
  return index === -1 ? bands.length - 1 : index;
}
