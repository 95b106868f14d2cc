export {
  ChargePoint,
  type ChargePointOptions,
  type ConnectorState,
  type Transaction,
} from './charge-point.ts';
export { Simulator, type SimulatorOptions } from './simulator.ts';
export { startControlApi } from './http.ts';
export { charge, chargePower, TAPER_FROM_SOC, TRICKLE_W, type Battery } from './battery.ts';
export type * from './ocpp.ts';
