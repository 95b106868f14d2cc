export * from './i18n/index.ts';
export * from './constants.ts';
export * from './validators/index.ts';
