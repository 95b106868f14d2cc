// Public surface of the WG controller gateway foundation: protocol constants, codec, zone helpers, UDP driver.
// See docs/devices.md.
export * from './constants.ts';
export * from './codec.ts';
export * from './time.ts';
export * from './driver.ts';
export { WgGateway, type WgGatewayOptions, type HubLike } from './gateway.ts';
export { wgGateway, type WgSettings } from './shape.ts';
export { localAddressFacing } from './local-address.ts';
export { collectRecords, recordInput } from './collector.ts';
export { checkRecordRing } from './door-watch.ts';
export { syncController, cardRecordOf, sameCard } from './sync.ts';
export { runSyncPass } from './session-sync.ts';
