/**
 * Why a list of bench/volume.ts is slow: the statements one call runs, captured from Kysely (a plugin that compiles
 * each query it sees while capturing) on a second app over the same database, then explained one by one:
 * EXPLAIN (ANALYZE, BUFFERS) on PostgreSQL (its execution time is the statement's), EXPLAIN QUERY PLAN on SQLite with
 * the statement's own time (median of three runs on the raw handle).
 */
import type { CompiledQuery, KyselyPlugin } from 'kysely';
import pg from 'pg';
import { buildApp } from '../packages/server/src/app.ts';
import type { Db } from '../packages/server/src/db/database.ts';
import { setListStatements } from '../packages/server/src/platform/list-statements.ts';
import type { Value } from './volume-sink.ts';

export interface Explained {
  sql: string;
  params: Value[];
  ms: number;
  plan: string[];
}

export interface Explainer {
  /** The statements over the record tables that `call` ran, each with its time and plan. */
  explain(call: (app: Awaited<ReturnType<typeof buildApp>>['app']) => Promise<void>): Promise<Explained[]>;
  close(): Promise<void>;
}

const RECORD_TABLES =
  /"(DoorOpeningRecord|DoorOpeningRecordDay|ChargeRecord|ChargeOrder|ForcedOutageRecord|ParkOrder)"/;

export async function explainer(
  db: Db,
  url: string,
  config: Parameters<typeof buildApp>[0]['config'],
): Promise<Explainer> {
  const captured: CompiledQuery[] = [];
  let capturing = false;
  const capture: KyselyPlugin = {
    transformQuery(args) {
      if (capturing) captured.push(db.kysely.getExecutor().compileQuery(args.node, args.queryId));
      return args.node;
    },
    async transformResult(args) {
      return args.result;
    },
  };
  const traced = await buildApp({ config, db: { ...db, kysely: db.kysely.withPlugin(capture) } });
  const client = db.sqlite ? undefined : new pg.Client({ connectionString: url });
  await client?.connect();

  async function one(sql: string, params: Value[]): Promise<Explained> {
    if (client) {
      const rows = (await client.query(`explain (analyze, buffers) ${sql}`, params)).rows as {
        'QUERY PLAN': string;
      }[];
      const plan = rows.map((x) => x['QUERY PLAN']);
      return { sql, params, plan, ms: Number(/Execution Time: ([\d.]+)/.exec(plan.join('\n'))?.[1] ?? NaN) };
    }
    const handle = db.sqlite!;
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      handle.prepare(sql).all(params);
      times.push(performance.now() - started);
    }
    const rows = handle.prepare(`explain query plan ${sql}`).all(params) as {
      id: number;
      parent: number;
      detail: string;
    }[];
    const depth = new Map<number, number>([[0, 0]]);
    const plan = rows.map((x) => {
      const d = (depth.get(x.parent) ?? 0) + 1;
      depth.set(x.id, d);
      return `${'  '.repeat(d - 1)}${x.detail}`;
    });
    return { sql, params, plan, ms: times.sort((a, b) => a - b)[1]! };
  }

  return {
    async explain(call) {
      captured.length = 0;
      capturing = true;
      // Each statement built afresh with its values: a kept list statement (platform/list-statements.ts) is
      // compiled once with slots standing for the values, which is what the capture would see.
      setListStatements({ cache: false });
      try {
        await call(traced.app);
      } finally {
        capturing = false;
        setListStatements({ cache: true });
      }
      const out: Explained[] = [];
      for (const s of captured.filter((x) => RECORD_TABLES.test(x.sql) && /^\s*select/i.test(x.sql)))
        out.push(await one(s.sql, s.parameters as Value[]));
      return out;
    },
    async close() {
      await client?.end();
      await traced.app.close();
    },
  };
}
