// Public surface of the WG controller gateway foundation: protocol constants, codec, zone helpers, UDP driver.
// See docs/devices.md.
export * from './constants.ts';
export * from './codec.ts';
export * from './time.ts';
export * from './driver.ts';
export {
  WgGateway,
  wgGateway,
  type WgSettings,
  localAddressFacing,
  type WgGatewayOptions,
  type HubLike,
} from './gateway.ts';
export { collectRecords, recordInput } from './collector.ts';
export { syncController, cardRecordOf, sameCard } from './sync.ts';
