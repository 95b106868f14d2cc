import type { Lang } from '@gatehouse/shared';
import type { Db } from '../db/database.ts';
import type { Clock } from './clock.ts';
import type { Principal } from './principal.ts';

/** What a service receives: no Fastify, no reply; the same shape device gateways will build. */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  lang: Lang;
  user: Principal;
  /** The trusted current area, present on area-scoped calls after the guard. */
  areaId: number | undefined;
}
