import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Bus } from './bus.ts';

/**
 * Readiness (docs/deployment.md, "Health and readiness"): whether this instance should be given traffic now,
 * beside /healthz (is it alive). Ready when the database answers, every migration this code knows is applied,
 * the cluster bus is receiving, and the instance is not draining. A proxy's health check on /readyz takes an
 * instance out of rotation as soon as it starts draining (SIGTERM), before it closes its sockets.
 */
export interface ReadinessReport {
  /** Which instance answered (INSTANCE_ID): behind a proxy, where the request went. */
  instance: string;
  ready: boolean;
  draining: boolean;
  database: boolean;
  /** Migrations known to this code and not applied in the database (none when ready). */
  pendingMigrations: string[] | null;
  bus: boolean;
}

export class Readiness {
  private drainingSince: number | undefined;
  /** Migrations only go forward: once all were applied, they stay applied. */
  private migrated = false;

  constructor(
    private readonly options: {
      instanceId: string;
      db: Db;
      bus: Pick<Bus, 'connected'>;
      /** The names of every migration this code runs (assembly.ts). */
      migrations: readonly string[];
    },
  ) {}

  /** From now on /readyz answers 503 (a SIGTERM: the proxy stops sending new work here). */
  drain(): void {
    this.drainingSince ??= Date.now();
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  async check(): Promise<ReadinessReport> {
    const { db, bus } = this.options;
    let database = false;
    let pendingMigrations: string[] | null = null;
    try {
      await sql`select 1`.execute(db.kysely);
      database = true;
      pendingMigrations = this.migrated ? [] : await this.pending();
      this.migrated = pendingMigrations.length === 0;
    } catch {
      // database stays false, or the bookkeeping table is missing (pendingMigrations null)
    }
    const busUp = bus.connected;
    return {
      instance: this.options.instanceId,
      ready: !this.draining && database && pendingMigrations?.length === 0 && busUp,
      draining: this.draining,
      database,
      pendingMigrations,
      bus: busUp,
    };
  }

  private async pending(): Promise<string[]> {
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(
      this.options.db.kysely,
    );
    const applied = new Set(rows.rows.map((r) => r.name));
    return this.options.migrations.filter((name) => !applied.has(name));
  }
}

/** `/readyz`: 200 with the report when ready, 503 with it otherwise (draining, database, migrations, bus). */
export function registerReadiness(app: FastifyInstance, readiness: Readiness): void {
  // The last state answered: a change is logged once (not every check of a proxy polling each second).
  let last: string | undefined;
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    const report = await readiness.check();
    const status = report.ready ? 200 : 503;
    const state = report.ready ? 'ready' : report.draining ? 'draining' : 'not ready';
    if (state !== last) {
      if (last !== undefined || state !== 'ready')
        request.log.info({ readiness: report }, `readiness: ${state}`);
      last = state;
    }
    return reply.status(status).send({
      code: status,
      msg: report.ready ? '' : report.draining ? 'draining' : 'not ready',
      data: { status: report.ready ? 'ready' : report.draining ? 'draining' : 'not ready', ...report },
    });
  });
}
