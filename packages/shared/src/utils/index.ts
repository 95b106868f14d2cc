export * from './date-input.ts';
export * from './format-date.ts';
export * from './relative-time.ts';
export * from './random-code.ts';
export * from './card-number.ts';
export * from './custom.ts';
export * from './day-span.ts';
export * from './iso-instant.ts';
