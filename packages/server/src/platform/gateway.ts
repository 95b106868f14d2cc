import type { Server } from 'node:http';
import type { HubEventInput } from '@gatehouse/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Clock } from './clock.ts';
import type { ClusterNode } from './cluster/node.ts';
import type { GatewayMetrics } from './metrics.ts';

/** Where a gateway reports what devices say: the area's live hub (platform/hub). */
export interface LiveEvents {
  publish(areaId: number, event: HubEventInput): void;
}

/** What every device gateway is given: the database, the clock, a logger and the live hub. */
export interface GatewayDeps {
  db: Db;
  /** This instance (config.instanceId): what it holds of the devices is marked with it. */
  instanceId: string;
  clock: Clock;
  log: FastifyBaseLogger;
  hub: LiveEvents;
  /**
   * This instance in the cluster (app.ts gives it): commands for a device another instance holds are carried
   * to it over the bus. Without it a gateway acts alone (tests that start one by hand).
   */
  cluster?: ClusterNode;
  /** Where it counts what devices did (platform/metrics.ts); absent: counted nowhere (tests that start one by hand). */
  metrics?: GatewayMetrics;
}

/** What /healthz reports of a gateway. */
export interface GatewayHealth {
  name: string;
  running: boolean;
  /** Devices it drives (or may accept), and how many of them answer or are connected now. */
  devices: number;
  connected: number;
  /** Of those, how many stopped answering (a gateway that can tell; the metrics' offline controllers). */
  offline?: number;
}

/**
 * One shape for every device gateway (door controllers over WG, chargers over OCPP): built from the same
 * dependencies, started once the app's HTTP server exists (a gateway that accepts connections attaches to
 * it), closed with the app, and asked for its health. The app starts and closes them all the same way
 * (app.ts); a gateway reaches the modules only through their faces.
 */
export interface DeviceGateway {
  readonly name: string;
  start(server: Server): Promise<void>;
  close(): Promise<void>;
  health(): GatewayHealth;
}
