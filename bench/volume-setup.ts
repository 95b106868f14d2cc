/**
 * The database bench/volume.ts measures: which one (DATABASE_URL) and how big (VOLUME_ROWS), whether it is already
 * seeded to that size (the VolumeBenchSeed table, written unfinished first and finished last, so an interrupted
 * seed is recognised and rebuilt, and a database this script did not make is never touched), and the seeding
 * itself: the server's migrator and seeder, then the generated rows (bench/volume-areas.ts, volume-seed.ts) through
 * a sink (bench/volume-sink.ts) with the bulk tables' secondary indexes dropped and rebuilt and foreign-key checks off,
 * the per-day counts checked against a recount, and on PostgreSQL VACUUM ANALYZE; then the door alarms and visitor
 * passes derived from those records (seedExtras), also added to a database seeded before them.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, type Kysely } from 'kysely';
import pg from 'pg';
import { isPostgresUrl, openDatabase, type Db } from '../packages/server/src/db/database.ts';
import { migrateToLatest, seedIfEmpty } from '../packages/server/src/assembly.ts';
import { GARAGE_DAY_COUNTED } from '../packages/server/src/modules/garage/index.ts';
import { ensureSwipePartitions, monthsOf } from '../packages/server/src/modules/access-control/index.ts';
import { recountRecordDays } from '../packages/server/src/platform/record-days.ts';
import {
  AREAS,
  BULK_TABLES,
  ID_TABLES,
  dayStart,
  planAreas,
  type AreaSummary,
  type SeededTable,
} from './volume-areas.ts';
import { seedBulk } from './volume-seed.ts';
import {
  foreignKeys,
  pgSink,
  secondaryIndexes,
  sqliteSink,
  type Ddl,
  type Sink,
  type Value,
} from './volume-sink.ts';

export const ROWS = Number(process.env.VOLUME_ROWS ?? 10_000_000);
export const url = process.env.DATABASE_URL ?? path.join(os.tmpdir(), 'gatehouse-volume.db');
export const postgres = isPostgresUrl(url);
/** Bumped whenever the generated data changes: an older seed is then rebuilt. */
const VERSION = 1;
/**
 * The records derived from the seeded ones (seedExtras: door alarms, visitor passes): bumped when they change.
 * A seed of the same VERSION without them, or with older ones, gets them added instead of being rebuilt.
 */
const EXTRAS = 1;
export const ADMIN_PASSWORD = 'Volume#Admin2026';
const MARKER = 'VolumeBenchSeed';
export const DAY = 86_400_000;

export type Row = Record<string, unknown>;
export type Run = (text: string, params?: Value[]) => Promise<Row[]>;

export interface Marker {
  version: number;
  rows: number;
  finished: boolean;
  now?: number;
  seedSeconds?: number;
  largest?: AreaSummary;
  small?: AreaSummary;
  counts?: Record<string, number>;
  /** The version of seedExtras's records the database holds (absent: none). */
  extras?: number;
}

export const log = (text: string) => console.log(`[volume] ${text}`);
export const fmt = (n: number) => n.toLocaleString('en');
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function runner(db: Db, client?: pg.Client): Run {
  if (db.sqlite) {
    const handle = db.sqlite;
    return async (text, params = []) => {
      const statement = handle.prepare(text);
      if (statement.reader) return statement.all(params) as Row[];
      statement.run(params);
      return [];
    };
  }
  return async (text, params = []) =>
    client
      ? (await client.query(text, params)).rows
      : ((await db.kysely.executeQuery(CompiledQuery.raw(text, params))).rows as Row[]);
}

function openDb(): Db {
  return openDatabase(url);
}

async function readMarker(db: Db): Promise<Marker | 'foreign' | null> {
  const run = runner(db);
  const exists = async (table: string) =>
    postgres
      ? (await run(`select to_regclass($1) is not null as found`, [`"${table}"`]))[0]!.found === true
      : (await run(`select 1 from sqlite_master where type = 'table' and name = ?`, [table])).length > 0;
  if (await exists(MARKER)) {
    const row = (await run(`select "Value" from "${MARKER}" where "Key" = 'seed'`))[0];
    return row ? (JSON.parse(String(row.Value)) as Marker) : { version: 0, rows: 0, finished: false };
  }
  return (await exists('AppUser')) ? 'foreign' : null;
}

async function writeMarker(db: Db, marker: Marker): Promise<void> {
  const run = runner(db);
  await run(`delete from "${MARKER}" where "Key" = 'seed'`);
  await run(`insert into "${MARKER}" ("Key", "Value") values ('seed', ${postgres ? '$1' : '?'})`, [
    JSON.stringify(marker),
  ]);
}

/** Removes a volume database of another size or an unfinished one (only ever one this script made). */
async function wipe(db: Db): Promise<Db> {
  if (postgres) {
    const run = runner(db);
    const schema = String((await run('select current_schema() as s'))[0]!.s);
    await run(`drop schema "${schema}" cascade`);
    await run(`create schema "${schema}"`);
    return db;
  }
  await db.close();
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(url + suffix, { force: true });
  return openDb();
}

// ---------------------------------------------------------------------------------------------------------
// Seeding

async function seed(db: Db): Promise<Marker> {
  const started = performance.now();
  // The data end now (or at VOLUME_NOW, epoch ms: two seeds with the same end hold the same rows).
  const now = Number(process.env.VOLUME_NOW ?? Date.now());
  const base = runner(db);
  await base(`create table "${MARKER}" ("Key" text primary key, "Value" text not null)`);
  await writeMarker(db, { version: VERSION, rows: ROWS, finished: false });
  log('migrating with the server’s migrator');
  await migrateToLatest(db);
  await seedIfEmpty(db, { mode: 'none', adminPassword: ADMIN_PASSWORD, now });
  const admin = await db.kysely
    .selectFrom('AppUser')
    .select(['Id', 'UserName'])
    .where('UserName', '=', 'admin')
    .executeTakeFirstOrThrow();

  const client = postgres ? new pg.Client({ connectionString: url }) : undefined;
  await client?.connect();
  const run = runner(db, client);
  const allTables = [...new Set<SeededTable>([...ID_TABLES, ...BULK_TABLES, 'ParkAreaChargeRule'])];
  // Foreign keys: checked by nothing while loading (the rows are consistent by construction).
  let droppedKeys: Ddl[] = [];
  let replica = false;
  if (postgres) {
    replica = (await run(`select current_setting('is_superuser') as su`))[0]!.su === 'on';
    if (!replica) {
      droppedKeys = await foreignKeys(run, allTables);
      for (const k of droppedKeys) await run(`alter table "${k.table}" drop constraint "${k.name}"`);
    }
    await run(`set maintenance_work_mem = '1GB'`);
  } else {
    db.sqlite!.pragma('foreign_keys = OFF');
    db.sqlite!.pragma('synchronous = OFF');
    db.sqlite!.pragma('cache_size = -1048576');
  }
  const sink = (): Sink => (db.sqlite ? sqliteSink(db.sqlite) : pgSink(url, { replica }));

  let t = performance.now();
  const dims = sink();
  const areas = planAreas(dims, ROWS, now);
  await dims.finish();
  log(
    `${AREAS} areas with their devices, holders, cards, zones, hosts and sockets: ${seconds(performance.now() - t)}`,
  );

  // The swipe records' monthly partitions (PostgreSQL) for every month the data span, as the server makes them
  // ahead of its clock: a COPY finds no partition for a row otherwise (there is no DEFAULT one).
  const firstDay = Math.min(...areas.map((a) => a.firstDay));
  const months: number[] = [];
  for (let at = dayStart(firstDay); at <= now; at += 28 * 86_400_000) months.push(at);
  const created = await ensureSwipePartitions(db, monthsOf([...months, now]));
  if (created.length) log(`created ${created.length} monthly partitions of the swipe records`);

  // Secondary indexes of the bulk tables: dropped now, rebuilt from their own statements after the load.
  const indexes = await secondaryIndexes(db.dialect, run, BULK_TABLES);
  for (const index of indexes) await run(`drop index "${index.name}"`);
  log(`dropped ${indexes.length} secondary indexes of ${BULK_TABLES.join(', ')} for the load`);

  t = performance.now();
  const cpu = process.cpuUsage();
  const bulk = sink();
  let shown = 0;
  const counts = await seedBulk(bulk, areas, now, { id: admin.Id, name: admin.UserName }, (p) => {
    const elapsed = performance.now() - t;
    if (elapsed - shown < 5000 && p.day !== p.days) return;
    shown = elapsed;
    const rows = p.swipes + p.sessions * 2 + p.parkOrders;
    log(
      `day ${p.day}/${p.days}: ${fmt(p.swipes)} swipes, ${fmt(p.sessions)} sessions and orders, ${fmt(p.parkOrders)} parking orders; ${fmt(Math.round((rows / elapsed) * 1000))} rows/s`,
    );
  });
  await bulk.finish();
  const loaded = performance.now() - t;
  const used = process.cpuUsage(cpu);
  log(
    `bulk rows written in ${seconds(loaded)} (this process: ${seconds((used.user + used.system) / 1000)} of CPU${postgres ? ', the server’s not counted' : ''}): ${JSON.stringify(counts)}`,
  );

  t = performance.now();
  for (const index of indexes) {
    const i = performance.now();
    await run(index.sql);
    log(`  index ${index.name}: ${seconds(performance.now() - i)}`);
  }
  const indexed = performance.now() - t;
  for (const k of droppedKeys) await run(k.sql);

  // What the generator could not write in order: sockets now charging, sequences past the given ids.
  await run(
    `update "ChargeEquipment" set "State" = 1, "StateChangedAt" = (select r."StartAt" from "ChargeRecord" r where r."ChargeEquipmentId" = "ChargeEquipment"."Id" and r."EndAt" is null) where "Id" in (select "ChargeEquipmentId" from "ChargeRecord" where "EndAt" is null)`,
  );
  if (postgres) {
    for (const table of ID_TABLES)
      await run(
        `select setval(pg_get_serial_sequence('"${table}"', 'Id'), (select max("Id") from "${table}"))`,
      );
  } else {
    db.sqlite!.pragma('foreign_keys = ON');
    db.sqlite!.pragma('synchronous = NORMAL');
  }

  // The garage's day counts (platform/record-days.ts): PostgreSQL's COPY above ran as a replica, which fires
  // no trigger, so they are counted once from the rows, as the migration does for rows already there.
  t = performance.now();
  await recountRecordDays(db.kysely as Kysely<unknown>, { dialect: db.dialect }, GARAGE_DAY_COUNTED);
  log(`garage day counts recounted in ${seconds(performance.now() - t)}`);

  t = performance.now();
  const mismatched = await run(
    `select count(*) as n from (select "AreaId", "At" / ${DAY} as "Day", "DeviceId", "Result", count(*) as "Count"
       from "DoorOpeningRecord" group by "AreaId", "At" / ${DAY}, "DeviceId", "Result") r
     full join "DoorOpeningRecordDay" d on d."AreaId" = r."AreaId" and d."Day" = r."Day" and d."DeviceId" = r."DeviceId" and d."Result" = r."Result"
     where r."Count" is distinct from d."Count"`,
  );
  if (Number(mismatched[0]!.n) !== 0)
    throw new Error(`${String(mismatched[0]!.n)} per-day counts differ from a recount of the records`);
  log(`per-day counts equal a recount of the records (checked in ${seconds(performance.now() - t)})`);

  t = performance.now();
  if (postgres) {
    // A database that grew over time has been vacuumed and analysed by autovacuum: the visibility map lets
    // index-only scans skip the heap, and the planner knows the tables' sizes.
    await run('vacuum analyze');
    log(`vacuum analyze: ${seconds(performance.now() - t)}`);
  } else {
    await run('pragma wal_checkpoint(truncate)');
  }
  await client?.end();

  const byRows = [...areas].sort((a, b) => b.swipes - a.swipes);
  const summary = (a: (typeof areas)[number]): AreaSummary => ({
    id: a.id,
    name: a.name,
    swipes: a.swipes,
    sessions: a.sessions,
    parkOrders: a.parkOrders,
    days: a.days,
  });
  const marker: Marker = {
    version: VERSION,
    rows: ROWS,
    finished: true,
    now,
    seedSeconds: Math.round((performance.now() - started) / 100) / 10,
    largest: summary(byRows[0]!),
    small: summary(byRows[Math.floor(byRows.length / 2)]!),
    counts,
  };
  await writeMarker(db, marker);
  log(
    `seeded in ${seconds(performance.now() - started)} (rows ${seconds(loaded)}, indexes ${seconds(indexed)})`,
  );
  return marker;
}

/**
 * What the lists of door alarms and of the visitor log read, derived from the seeded records in two statements
 * (the same on both databases, and on a database seeded before they were added):
 * - visitor passes: one holder in 50 of every area is a visitor on a pass (its first card, the area's first
 *   holder as host, a day's window from when the holder was created, expired), so the visitor log, the swipes of
 *   pass cards, is about 2 % of an area's swipes;
 * - door alarms: one refused swipe in 20 raised one, of each kind in turn, at its door and time; two in three
 *   acknowledged, the rest open.
 */
async function seedExtras(db: Db): Promise<void> {
  const run = runner(db);
  let t = performance.now();
  await run(`delete from "VisitorPass"`);
  await run(
    `insert into "VisitorPass" ("AreaId", "CardUserId", "CardId", "CardNumber", "VisitorName", "Phone", "Company",
       "HostCardUserId", "HostName", "ChannelIds", "ValidFrom", "ValidTo", "HoursOnController", "State", "EndedAt",
       "EndedBy", "CreatedBy", "CreatedAt", "UpdatedAt")
     select u."AreaId", u."Id", c."Id", c."CardNumber", u."Name", u."Phone", '访客单位' || (u."Id" % 7), h."Id", h."Name",
       '[]', u."CreatedAt", u."CreatedAt" + ${DAY}, 0, 2, u."CreatedAt" + ${DAY}, null, 'admin', u."CreatedAt", u."CreatedAt"
     from "CardUser" u
     join "Card" c on c."Id" = (select min(c2."Id") from "Card" c2 where c2."CardUserId" = u."Id")
     join "CardUser" h on h."Id" = (select min(h2."Id") from "CardUser" h2 where h2."AreaId" = u."AreaId")
     where u."Id" % 50 = 7 and h."Id" <> u."Id"`,
  );
  log(`visitor passes: ${seconds(performance.now() - t)}`);
  t = performance.now();
  await run(`delete from "DoorAlarm"`);
  await run(
    `insert into "DoorAlarm" ("AreaId", "DeviceId", "DeviceName", "DoorNumber", "DoorName", "Kind", "State", "RaisedAt",
       "LastAt", "Count", "ClearedAt", "Detail", "AcknowledgedAt", "AcknowledgedById", "AcknowledgedBy", "Note")
     select r."AreaId", r."DeviceId", r."DeviceName", r."DoorNumber", r."ChannelName", 1 + (r."Id" / 20) % 4,
       case when r."Id" % 3 = 0 then 0 else 1 end, r."At", r."At", 1, r."At" + 60000, null,
       case when r."Id" % 3 = 0 then null else r."At" + 600000 end, null,
       case when r."Id" % 3 = 0 then null else 'admin' end,
       case when r."Id" % 3 = 0 then null else '已到现场查看' end
     from "DoorOpeningRecord" r
     where r."Result" = 0 and r."Id" % 20 = 3`,
  );
  log(`door alarms: ${seconds(performance.now() - t)}`);
  if (postgres) await run('vacuum analyze "VisitorPass", "DoorAlarm"');
}

/** The commit the server code comes from, and whether its working tree differs from it. */
export function codeVersion(): string {
  const root = path.resolve(import.meta.dirname, '..');
  try {
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', root, ...args], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--', 'packages');
    return dirty ? `${commit} with uncommitted changes under packages/` : commit;
  } catch {
    const file = path.join(root, 'COMMIT');
    return fs.existsSync(file) ? `${fs.readFileSync(file, 'utf8').trim().slice(0, 7)} (a copy)` : 'unknown';
  }
}

export async function databaseSize(db: Db): Promise<string> {
  if (!postgres) {
    const bytes = ['', '-wal'].reduce(
      (s, x) => s + (fs.existsSync(url + x) ? fs.statSync(url + x).size : 0),
      0,
    );
    return `${(bytes / 1e9).toFixed(2)} GB (file ${path.resolve(url)})`;
  }
  const run = runner(db);
  const total = Number((await run('select pg_database_size(current_database()) as n'))[0]!.n);
  const tables = await run(
    `select relname as t, pg_total_relation_size(c.oid) as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
     where s.nspname = current_schema() and c.relkind = 'r' order by 2 desc limit 6`,
  );
  return `${(total / 1e9).toFixed(2)} GB (${tables.map((r) => `${String(r.t)} ${(Number(r.n) / 1e9).toFixed(2)}`).join(', ')})`;
}

/** The database seeded to VOLUME_ROWS (seeded now, or found so), open with the server's own settings. */
export async function prepare(): Promise<{ db: Db; marker: Marker }> {
  let db = openDb();
  const found = await readMarker(db);
  if (found === 'foreign')
    throw new Error(
      `${url} holds a Gatehouse database this benchmark did not make: give it an empty database or file`,
    );
  let marker: Marker;
  if (found && found.finished && found.version === VERSION && found.rows === ROWS) {
    marker = found;
    log(
      `reusing ${postgres ? 'the database' : path.resolve(url)}: seeded to ${fmt(ROWS)} rows in ${marker.seedSeconds} s`,
    );
    // As the server does at start: migrations added since the seed apply to it (none, usually).
    const applied = await migrateToLatest(db);
    if (applied.length) log(`applied the migrations added since: ${applied.join(', ')}`);
  } else {
    if (found) {
      log(
        `removing an earlier volume database (${found.finished ? `${fmt(found.rows)} rows` : 'unfinished'})`,
      );
      db = await wipe(db);
    }
    marker = await seed(db);
    // Measure on a fresh connection with the server's own settings (the loader's cache and pragmas go).
    await db.close();
    db = openDb();
  }
  if (marker.extras !== EXTRAS) {
    log('adding the door alarms and visitor passes derived from the records');
    await seedExtras(db);
    marker = { ...marker, extras: EXTRAS };
    await writeMarker(db, marker);
  }
  return { db, marker };
}
