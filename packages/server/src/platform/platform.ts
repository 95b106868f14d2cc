import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { ApiKeyStore } from './auth/api-keys.ts';
import type { HubTickets } from './auth/hub-tickets.ts';
import type { SessionStore } from './auth/sessions.ts';
import type { LoginThrottle } from './auth/throttle.ts';
import type { Clock } from './clock.ts';
import type { Seams } from './context.ts';
import type { ClusterNode } from './cluster/node.ts';
import type { ExportQueue } from './exports/queue.ts';
import type { Settings } from './settings.ts';
// The platform's tables (joined to Database by declaration merging): part of every program that has a platform.
import type {} from './tables.ts';

/** The long-lived pieces a request may need; built once in app.ts. */
export interface Platform {
  config: Config;
  db: Db;
  clock: Clock;
  settings: Settings;
  sessions: SessionStore;
  /** API keys: the credentials of other systems (issue 29), resolved like sessions on every request. */
  apiKeys: ApiKeyStore;
  /** One-time tickets that open the live hub's WebSocket (no session token in URLs). */
  hubTickets: HubTickets;
  throttle: LoginThrottle;
  exports: ExportQueue;
  log: FastifyBaseLogger;
  /** This instance in the cluster: bus, leases, instance registry, cluster-wide tasks. */
  cluster: ClusterNode;
  /** The live hub and the device gateways, carried by every context the app makes (ServiceContext.seams). */
  seams: Seams;
}
