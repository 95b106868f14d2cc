export * from './tariff.ts';
export * from './rule-terms.ts';
export * from './format.ts';
export * from './calendar.ts';
export * from './meter.ts';
export * from './periods.ts';
