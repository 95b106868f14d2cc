import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/platform.ts';
import { installChargerGateway } from '../../modules/garage/index.ts';
import type { AreaHub } from '../../modules/system/index.ts';
import { CentralSystem } from './central-system.ts';
import { ocppChargerGateway } from './charger-gateway.ts';
import { forwardToHub } from './live.ts';

export {
  CentralSystem,
  ChargePointOfflineError,
  OCPP_PATH,
  isOcppPath,
  type Connection,
} from './central-system.ts';
export { setOcppPassword, normaliseKey, OCPP_CHARGING_SYSTEM_TYPE } from './auth.ts';
export type {
  OcppEvents,
  HostRef,
  SocketStateEvent,
  MeterEvent,
  SessionEvent,
  SessionEndedEvent,
} from './events.ts';
export { ocppChargerGateway } from './charger-gateway.ts';
export { forwardToHub } from './live.ts';
export { deviceTime, MAX_DEVICE_CLOCK_LAG_MS } from './handlers.ts';
export { REFUSED_TRANSACTION_ID, latestReadings, readSample, stopReasonFromOcpp } from './transactions.ts';

/**
 * Starts the OCPP 1.6J central system on the app's HTTP server (`/ocpp/{serial}`), next to the live hub's
 * WebSocket route. The upgrade listener is wrapped once every plugin has registered its own. Installs the
 * power-off gateway for this database's app, and forwards what charge points report to the area's hub.
 */
export function registerOcpp(app: FastifyInstance, platform: Platform, hub?: AreaHub): CentralSystem {
  const central = new CentralSystem({
    db: platform.db,
    clock: platform.clock,
    log: platform.log.child({ module: 'ocpp' }),
    heartbeatSeconds: platform.config.ocpp?.heartbeatSeconds ?? 60,
    offlineGraceSeconds: platform.config.ocpp?.offlineGraceSeconds ?? 600,
  });
  installChargerGateway(ocppChargerGateway(central), platform.db);
  if (hub) forwardToHub(central, hub);
  app.addHook('onReady', async () => {
    await central.start();
    central.attach(app.server);
  });
  app.addHook('onClose', async () => {
    installChargerGateway(undefined, platform.db);
    await central.close();
  });
  return central;
}
