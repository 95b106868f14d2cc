// The API contract: what each resource returns and who may call it, shared by the server's routes
// (and so the OpenAPI document) and the web's typed rows and permission checks.
export * from './permissions.ts';
export * from './system/index.ts';
export * from './organization/index.ts';
export * from './access-control/index.ts';
export * from './garage/index.ts';
export * from './wire.ts';
export * from './limits.ts';
export * from './operation.ts';
export * from './events.ts';
export * from './event-catalogue.ts';
