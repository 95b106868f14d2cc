import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ColumnNode,
  TableNode,
  UpdateQueryNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
} from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Built } from '../src/app.ts';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/database.ts';
import { ManualClock } from '../src/platform/clock.ts';
import { clusterKysely } from '../src/platform/cluster/index.ts';
import { runExportJob } from '../src/platform/exports/run.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD } from './support/harness.ts';

interface Job {
  Id: number;
  Status: string;
  RowCount: number;
  Error: string | null;
}

/** Counts the UPDATEs of one instance that moved an ExportJob row to done. */
class Transitions implements KyselyPlugin {
  total = 0;
  private readonly doneQueries = new WeakSet<QueryId>();
  transformQuery({ node, queryId }: PluginTransformQueryArgs) {
    if (
      UpdateQueryNode.is(node) &&
      node.table &&
      TableNode.is(node.table) &&
      node.table.table.identifier.name === 'ExportJob'
    ) {
      const status = node.updates?.find((u) => ColumnNode.is(u.column) && u.column.column.name === 'Status');
      const value = status?.value as { kind: string; value?: unknown } | undefined;
      if (value?.kind === 'ValueNode' && value.value === 'done') this.doneQueries.add(queryId);
    }
    return node;
  }
  async transformResult({ queryId, result }: PluginTransformResultArgs) {
    if (this.doneQueries.has(queryId)) this.total += Number(result.numAffectedRows ?? 0);
    return result;
  }
}

interface Instance {
  built: Built;
  db: Db;
  clock: ManualClock;
  transitions: Transitions;
}

interface Shared {
  a: Instance;
  b: Instance;
  drop(): Promise<void>;
}

/** Two app instances on one database: the same SQLite file, or the same PostgreSQL schema. */
async function twoInstances(kind: 'sqlite' | 'postgres'): Promise<Shared> {
  let open: () => Db;
  let drop: () => Promise<void>;
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-exports-cluster-'));
    open = () => openDatabase(path.join(dir, 'shared.db'));
    drop = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    const url = process.env.TEST_DATABASE_URL!;
    const schema = `t_exc_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    open = () => openDatabase(url, { pgSchema: schema });
    drop = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    };
  }
  const first = open();
  await migrateToLatest(first);
  const start = Date.UTC(2026, 10, 1, 8);
  await seedIfEmpty(first, { mode: 'demo', adminPassword: ADMIN_PASSWORD, now: start, scale: 0.005 });
  await first.close();
  const instance = async (): Promise<Instance> => {
    const db = open();
    const transitions = new Transitions();
    db.kysely = db.kysely.withPlugin(transitions);
    const clock = new ManualClock(start);
    const config = loadConfig({ LOG_LEVEL: 'silent', SEED: 'demo', ADMIN_PASSWORD });
    const built = await buildApp({ config: { ...config, webDist: '/nonexistent' }, db, clock });
    return { built, db, clock, transitions };
  };
  const a = await instance();
  const b = await instance();
  return {
    a,
    b,
    async drop() {
      for (const i of [a, b]) {
        await i.built.app.close();
        await i.db.close();
      }
      await drop();
    },
  };
}

async function waitDone(i: Instance, ids: number[], ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const rows = await i.db.kysely.selectFrom('ExportJob').select('Status').where('Id', 'in', ids).execute();
    if (rows.length === ids.length && rows.every((r) => r.Status === 'done' || r.Status === 'failed')) return;
    if (Date.now() > deadline) throw new Error(`jobs ${ids.join(',')} not finished within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const kinds: ('sqlite' | 'postgres')[] = [
  'sqlite',
  ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : []),
];

for (const kind of kinds) {
  describe(`[${kind}] export jobs shared by two instances`, () => {
    let s: Shared;
    beforeAll(async () => {
      s = await twoInstances(kind);
    });
    afterAll(async () => {
      await s?.drop();
    });

    it('a file made on instance A downloads from instance B', async () => {
      const tokenA = await login(s.a.built.app, 'deptadmin', DEMO_PASSWORD);
      const job = await call<Job>(s.a.built.app, 'POST', '/api/ExportJob', {
        token: tokenA,
        area: 1,
        body: { Resource: 'Department', Query: {} },
      });
      expect(job.status, job.msg).toBe(200);
      await waitDone(s.a, [job.data.Id]);
      const tokenB = await login(s.b.built.app, 'deptadmin', DEMO_PASSWORD);
      const file = await s.b.built.app.inject({
        method: 'GET',
        url: `/api/ExportJob/${job.data.Id}/Download`,
        headers: { authorization: `Bearer ${tokenB}`, 'x-area-id': '1' },
      });
      expect(file.statusCode).toBe(200);
      const stored = await s.b.db.kysely
        .selectFrom('ExportFile')
        .select('Content')
        .where('JobId', '=', job.data.Id)
        .executeTakeFirstOrThrow();
      expect(Buffer.compare(file.rawPayload, Buffer.from(stored.Content))).toBe(0);
    });

    it('two attempts of one job at once (a retry racing a slow attempt): one file, one done transition', async () => {
      const token = await login(s.a.built.app, 'deptadmin', DEMO_PASSWORD);
      const job = await call<Job>(s.a.built.app, 'POST', '/api/ExportJob', {
        token,
        area: 1,
        body: { Resource: 'Department', Query: {} },
      });
      await waitDone(s.a, [job.data.Id]);
      // Back to pending, as if no attempt had finished yet, then two attempts on the two instances at once.
      await s.a.db.kysely.deleteFrom('ExportFile').where('JobId', '=', job.data.Id).execute();
      await s.a.db.kysely
        .updateTable('ExportJob')
        .set({ Status: 'pending', FileName: null })
        .where('Id', '=', job.data.Id)
        .execute();
      const before = s.a.transitions.total + s.b.transitions.total;
      const deps = (i: Instance) => ({
        db: i.db,
        clock: i.clock,
        principalOfUser: (userId: number) => i.built.platform.sessions.principalOfUser(userId),
        retentionDays: () => 7,
        log: { error: () => undefined },
      });
      const run = { id: 'test', attempt: 2, signal: new AbortController().signal };
      // SQLite is one process: its attempts share the process's connection; PostgreSQL's run on both instances.
      const other = kind === 'postgres' ? s.b : s.a;
      await Promise.all([
        runExportJob(deps(s.a), job.data.Id, run),
        runExportJob(deps(other), job.data.Id, run),
        runExportJob(deps(s.a), job.data.Id, run),
      ]);
      expect(s.a.transitions.total + s.b.transitions.total - before).toBe(1);
      const files = await s.a.db.kysely
        .selectFrom('ExportFile')
        .select('JobId')
        .where('JobId', '=', job.data.Id)
        .execute();
      expect(files).toHaveLength(1);
      const row = await s.a.db.kysely
        .selectFrom('ExportJob')
        .select(['Status', 'Error'])
        .where('Id', '=', job.data.Id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ Status: 'done', Error: null });
    });

    it.runIf(kind === 'postgres')(
      'jobs created on A are each done by exactly one of the two instances: one file, one done transition each',
      async () => {
        const token = await login(s.a.built.app, 'admin', ADMIN_PASSWORD);
        const before = { a: s.a.transitions.total, b: s.b.transitions.total };
        const ids: number[] = [];
        for (let i = 0; i < 12; i++) {
          const job = await call<Job>(s.a.built.app, 'POST', '/api/ExportJob', {
            token,
            area: 1,
            body: { Resource: i % 2 ? 'Department' : 'Role', Query: {} },
          });
          expect(job.status, job.msg).toBe(200);
          ids.push(job.data.Id);
        }
        await waitDone(s.a, ids);
        const byA = s.a.transitions.total - before.a;
        const byB = s.b.transitions.total - before.b;
        // Both instances take jobs from the one queue; whichever took a job, it was done once.
        expect(byA + byB).toBe(ids.length);
        const files = await s.a.db.kysely
          .selectFrom('ExportFile')
          .select('JobId')
          .where('JobId', 'in', ids)
          .execute();
        expect(files.map((f) => f.JobId).sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
        const statuses = await s.b.db.kysely
          .selectFrom('ExportJob')
          .select('Status')
          .where('Id', 'in', ids)
          .execute();
        expect(statuses.every((r) => r.Status === 'done')).toBe(true);
        console.info(`exactly once: ${ids.length} jobs created on A, done by A ${byA}, by B ${byB}`);
      },
    );

    it('expiry removes the files once, whichever instances sweep', async () => {
      const done = await s.a.db.kysely
        .selectFrom('ExportJob')
        .select('Id')
        .where('Status', '=', 'done')
        .execute();
      expect(done.length).toBeGreaterThan(0);
      for (const i of [s.a, s.b]) i.clock.advance(8 * 86_400_000);
      // Two sweeps at once on PostgreSQL; on SQLite (one process) one after the other.
      const sweeps = [s.a.built.platform.exports, s.b.built.platform.exports].map((e) => () => e.sweep());
      const swept =
        kind === 'postgres'
          ? await Promise.all(sweeps.map((sweep) => sweep()))
          : [await sweeps[0]!(), await sweeps[1]!()];
      expect(swept[0]! + swept[1]!).toBe(done.length);
      expect(await s.a.built.platform.exports.sweep()).toBe(0);
      const files = await s.b.db.kysely.selectFrom('ExportFile').select('JobId').execute();
      expect(files).toEqual([]);
      const left = await s.b.db.kysely
        .selectFrom('ExportJob')
        .select('Id')
        .where('Status', '=', 'done')
        .execute();
      expect(left).toEqual([]);
      if (kind === 'postgres') {
        // The hourly expiry runs under one lease across the cluster: one of the two instances holds it.
        const holders = await clusterKysely(s.a.db.kysely)
          .selectFrom('Lease')
          .select('Holder')
          .where('Kind', '=', 'singleton')
          .where('Key', '=', 'export-expiry')
          .execute();
        expect(holders).toHaveLength(1);
        expect(holders[0]!.Holder).not.toBeNull();
      }
    });
  });
}
