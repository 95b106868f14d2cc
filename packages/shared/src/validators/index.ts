export * from './rules.ts';
export * from './adapters.ts';
