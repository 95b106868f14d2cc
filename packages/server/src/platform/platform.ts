import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { SettingsService } from '../modules/system/settings/service.ts';
import type { SessionStore } from './auth/sessions.ts';
import type { LoginThrottle } from './auth/throttle.ts';
import type { Clock } from './clock.ts';
import type { ExportQueue } from './exports/queue.ts';
import type { AnyRoute } from './route.ts';

/** The long-lived pieces a request may need; built once in app.ts. */
export interface Platform {
  config: Config;
  db: Db;
  clock: Clock;
  settings: SettingsService;
  sessions: SessionStore;
  throttle: LoginThrottle;
  exports: ExportQueue;
  log: FastifyBaseLogger;
  /** Every declared route, for OpenAPI checks and the permission test that walks them all. */
  routes: AnyRoute[];
}
