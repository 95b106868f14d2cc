export * from './tariff.ts';
export * from './rule-terms.ts';
export * from './format.ts';
export * from './lines.ts';
export * from './calendar.ts';
// The engine's helpers stay inside; these are what a screen or a form may need besides priceSession.
export { SUSTAINED_POWER_WINDOW_MS, bandIndexFor, sustainedPowerW } from './meter.ts';
export { isTimeOfDay, overlappingPeriods, timeOfDaySpans, uncoveredTimes } from './periods.ts';
// A running session's readings as a server keeps them: folded one by one, in bounded space.
export {
  assertDigest,
  digestEnergyWh,
  digestOf,
  foldReading,
  placeReading,
  startDigest,
  type DigestTerms,
  type MeterDigest,
} from './digest.ts';
