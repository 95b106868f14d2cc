export * from './ports.ts';
export * from './hosts.ts';
