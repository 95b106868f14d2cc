import {
  chargePointHolder,
  releaseChargePointsOfGone,
  type ChargerGateway,
} from '../../modules/garage/index.ts';
import type { DeviceGateway, GatewayDeps } from '../../platform/gateway.ts';
import type { GatewayMetrics } from '../../platform/metrics.ts';
import { CentralSystem } from './central-system.ts';
import { closeReplacedConnections, ocppChargerGateway, serveChargerCommands } from './charger-gateway.ts';
import { applyEmergencyOnConnect } from './emergency.ts';
import { forwardToHub } from './live.ts';

export { CentralSystem } from './central-system.ts';
export { ChargePointOfflineError, type Connection } from './connection.ts';
export {
  OCPP_PATH,
  isOcppPath,
  deviceTime,
  MAX_DEVICE_CLOCK_LAG_MS,
  REFUSED_TRANSACTION_ID,
  latestReadings,
  readSample,
  stopReasonFromOcpp,
} from './protocol.ts';
export { setOcppPassword, normaliseKey, OCPP_CHARGING_SYSTEM_TYPE } from './auth.ts';
export type {
  OcppEvents,
  HostRef,
  SocketStateEvent,
  MeterEvent,
  SessionEvent,
  SessionEndedEvent,
} from './events.ts';
export {
  CHARGER_COMMANDS,
  CHARGER_CONNECTED,
  closeReplacedConnections,
  ocppChargerGateway,
  serveChargerCommands,
  type ChargerRouting,
} from './charger-gateway.ts';
export { forwardToHub } from './live.ts';

/** How often the cluster looks for charge points held by instances that are gone. */
const ORPHAN_SWEEP_MS = 10_000;

/** The OCPP gateway's settings (config.ocpp). */
export interface OcppSettings {
  heartbeatSeconds: number;
  offlineGraceSeconds: number;
}

/**
 * The OCPP 1.6J central system in the house's one gateway shape (platform/gateway.ts): built with the app (so
 * the garage's charger seam exists from the first request), started on the app's HTTP server
 * (`/ocpp/{serial}`, beside the live hub's WebSocket route), closed with the app. What charge points report
 * goes to the area's live hub. `chargers` is the garage's charger seam, which the app carries on its contexts.
 */
export function ocppGateway(
  deps: GatewayDeps,
  settings: OcppSettings,
): DeviceGateway & { central: CentralSystem; chargers: ChargerGateway } {
  const central = new CentralSystem({
    db: deps.db,
    instanceId: deps.instanceId,
    clock: deps.clock,
    log: deps.log.child({ module: 'ocpp' }),
    heartbeatSeconds: settings.heartbeatSeconds,
    offlineGraceSeconds: settings.offlineGraceSeconds,
    // Once across the cluster (below), not on every instance.
    sweepLostSessions: !deps.cluster,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  });
  // With the cluster, a command for a charge point connected to another instance is carried to it.
  const cluster = deps.cluster;
  const routing = cluster && {
    self: deps.instanceId,
    holder: (hostId: number) => chargePointHolder(deps.db, hostId),
    owners: cluster.owners,
  };
  const chargers = countPowerOffs(ocppChargerGateway(central, undefined, routing), central, deps.metrics);
  forwardToHub(central, deps.hub);
  // A charger connecting into a zone under emergency stop (or missed by its release) is told at once.
  applyEmergencyOnConnect(central, {
    db: deps.db,
    clock: deps.clock,
    log: deps.log.child({ module: 'ocpp' }),
  });
  let running = false;
  let unserve: (() => void) | undefined;
  let sweeping = false;
  return {
    name: 'ocpp',
    central,
    chargers,
    async start(server) {
      await central.start();
      central.attach(server);
      if (cluster) {
        // Commands other instances address to the charge points connected here; an older connection of a
        // charge point that has connected to another instance is closed.
        const unserveCommands = serveChargerCommands(central, cluster.owners);
        const unwatch = closeReplacedConnections(
          central,
          cluster.bus,
          deps.instanceId,
          routing!.holder,
          (error) => deps.log.error({ err: error }, 'ocpp: announcing a connection'),
        );
        unserve = () => {
          unserveCommands();
          unwatch();
        };
        await cluster.owners.ready();
        if (!sweeping) {
          sweeping = true;
          startClusterSweeps(cluster, central, deps);
        }
      }
      running = true;
    },
    async close() {
      running = false;
      unserve?.();
      await central.close();
    },
    health() {
      return {
        name: 'ocpp',
        running,
        devices: central.connected().length,
        connected: central.connected().length,
      };
    },
  };
}

/** The OCPP side's cluster-wide sweeps, each run by whichever instance holds its lease. */
function startClusterSweeps(
  cluster: NonNullable<GatewayDeps['cluster']>,
  central: CentralSystem,
  deps: GatewayDeps,
): void {
  // Charge points of an instance that died stay "online" in their rows: once across the cluster, they
  // are taken offline from their last sign of life (the offline grace then runs for their sessions).
  cluster.singleton('ocpp-orphans', ORPHAN_SWEEP_MS, async () => {
    // This instance is alive whatever its last heartbeat says (a test's clock may have jumped).
    const live = [...(await cluster.liveInstances()), deps.instanceId];
    const now = deps.clock.now();
    for (const host of await releaseChargePointsOfGone(deps.db, live, now)) {
      deps.log.info({ chargePoint: host.serial, holder: host.holder }, 'ocpp: holder gone, host offline');
      central.emit('disconnected', {
        hostId: host.hostId,
        areaId: host.areaId,
        serial: host.serial,
        at: now,
      });
    }
  });
  // Sessions of hosts offline past the grace closed as power failure: by one instance, whichever holds
  // the lease, as often as each instance looked before.
  cluster.singleton('ocpp-lost-sessions', Math.min(central.heartbeatSeconds, 30) * 1000, async () => {
    await central.closeLostSessions();
  });
}

/**
 * Power-offs counted by outcome (platform/metrics.ts) where this instance learns it: the charger seam's answer
 * to the operator's request (counted once, on the instance the operator used, wherever the charge point is
 * connected), and the charger's own stop report confirming one (on the instance it is connected to).
 */
function countPowerOffs(
  chargers: ChargerGateway,
  central: CentralSystem,
  metrics: GatewayMetrics | undefined,
): ChargerGateway {
  if (!metrics) return chargers;
  central.on('sessionEnded', (e) => metrics.powerOff('confirmed', e.powerOffRecordIds.length));
  return {
    ...chargers,
    async powerOff(command) {
      // A seam that throws is a failed power-off for the operator (forced-outage-record/service.ts).
      const answer = await chargers.powerOff(command).catch((error: unknown) => {
        metrics.powerOff('failed');
        throw error;
      });
      metrics.powerOff(answer.outcome === 'notSent' ? 'not_sent' : answer.outcome);
      return answer;
    },
  };
}
