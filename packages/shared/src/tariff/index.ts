export * from './tariff.ts';
export * from './rule-terms.ts';
export * from './format.ts';
export * from './calendar.ts';
// The engine's helpers stay inside; these are what a screen or a form may need besides priceSession.
export { SUSTAINED_POWER_WINDOW_MS, bandIndexFor, sustainedPowerW } from './meter.ts';
export { timeOfDaySpans } from './periods.ts';
