// The access-control module's API (docs/access-control.md): one file per resource, named after its
// server feature folder.
export * from './common.ts';
export * from './device-registration.ts';
export * from './card-registration.ts';
export * from './access-control-device.ts';
export * from './access-control-channel.ts';
export * from './card.ts';
export * from './card-user.ts';
export * from './card-user-link-channel.ts';
export * from './door-opening-record.ts';
export * from './change-record.ts';
export * from './failure-declaration-record.ts';
export * from './options.ts';
export * from './access-control-dashboard.ts';
