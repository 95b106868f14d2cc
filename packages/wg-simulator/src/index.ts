// Virtual WG (UHPPOTE UT0311-L0x) access controllers on loopback UDP, for tests, demos and benchmarks.
// No Gatehouse code in here: the controller-side codec (protocol.ts) is written independently from the
// published protocol so it can check Gatehouse's own codec.
export {
  WgSimulator,
  wallClock,
  type SimulatorOptions,
  type SimulatorStats,
  type Endpoint,
} from './simulator.ts';
export {
  VirtualController,
  doorCount,
  type CardEntry,
  type ControllerOptions,
  type SimRecord,
  type SwipeOptions,
} from './controller.ts';
export {
  AccessRules,
  type DoorTaskState,
  type PinMode,
  type RulesSnapshot,
  type SimFirstCard,
  type SimTask,
  type SimTimeProfile,
  type SimTimeSegment,
} from './rules.ts';
export { serveHttp } from './http.ts';
export type { SimDate, SimDateTime, SimHHmm } from './protocol.ts';
