export * from './tariff.ts';
export * from './rule-terms.ts';
export * from './format.ts';
export * from './calendar.ts';
