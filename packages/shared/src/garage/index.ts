export * from './ports.ts';
export * from './hosts.ts';
export * from './ocpp-status.ts';
