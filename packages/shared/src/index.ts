export * from './i18n/index.ts';
export * from './constants.ts';
export * from './validators/index.ts';
export * from './enums/index.ts';
export * from './utils/index.ts';
