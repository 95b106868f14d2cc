import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { childDatabase, childDbKinds, childMessage, forkChild, killHard } from './support/child-db.ts';
import { ADMIN_PASSWORD } from './support/harness.ts';

// Faults: the real server in a child process (support/server-child.ts), killed with SIGKILL half-way through
// an export and a holder import, then started again on the same database and folder. What a restart must find:
// complete data, no job stuck, no half-written file. (The seed's own kill test is seed-atomic.test.ts.)

const SERVER = fileURLToPath(new URL('./support/server-child.ts', import.meta.url));
const SCALE = '0.02';

interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** A server child and a tiny client for it (real HTTP: the kill must cut a real connection). */
async function startServer(args: string[], env: Record<string, string>) {
  const child = forkChild(SERVER, args, {
    ADMIN_PASSWORD,
    SEED: 'demo',
    DEMO_SCALE: SCALE,
    ...env,
  });
  const port = await childMessage(child, (m) => (m as { port?: number }).port);
  const base = `http://127.0.0.1:${port}`;
  let token = '';
  const request = async (method: string, url: string, body?: unknown, lang = 'en') =>
    fetch(base + url, {
      method,
      headers: {
        'accept-language': lang,
        'x-area-id': '1',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const call = async <T>(method: string, url: string, body?: unknown) => {
    const response = await request(method, url, body);
    const envelope = (await response.json()) as Envelope<T>;
    return { status: response.status, ...envelope };
  };
  const signedIn = await call<{ token: string }>('POST', '/api/Auth/login', {
    username: 'admin',
    password: ADMIN_PASSWORD,
  });
  expect(signedIn.status, signedIn.msg).toBe(200);
  token = signedIn.data.token;
  return { child, request, call };
}

/** The database migrated and seeded (small) by the test, as a first start would leave it. */
async function prepared(kind: 'sqlite' | 'postgres', prefix: string) {
  const database = await childDatabase(kind, prefix);
  const db = database.open();
  await migrateToLatest(db);
  await seedIfEmpty(db, {
    mode: 'demo',
    adminPassword: ADMIN_PASSWORD,
    now: Date.now(),
    scale: Number(SCALE),
  });
  return { ...database, db };
}

/** Holder names are 2 to 6 Chinese characters: a prefix and the row's number in Chinese digits. */
const PREFIX = '断电';
const holderName = (i: number) =>
  PREFIX + [...String(i).padStart(4, '0')].map((d) => '零一二三四五六七八九'[Number(d)]).join('');

const listFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

interface Job {
  Id: number;
  Status: string;
  Error: string | null;
  FileName: string | null;
  RowCount: number;
}

/** What each kill test checked, printed at the end per database. */
const checked: Record<string, string[]> = {};

describe.each(childDbKinds)('[%s] faults: SIGKILL mid-way, then restart', (kind) => {
  const report = (line: string) => (checked[kind] ??= []).push(line);
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) await killHard(child);
  });

  it('an export killed while it writes its file: failed at restart, its partial file removed, nothing offered', async () => {
    const { args, dir, db, drop } = await prepared(kind, 'fault-export');
    const exportDir = path.join(dir, 'exports');
    try {
      const holders = Number(
        (
          await db.kysely
            .selectFrom('CardUser')
            .select(sql<number>`count(*)`.as('n'))
            .where('AreaId', '=', 1)
            .executeTakeFirstOrThrow()
        ).n,
      );
      const first = await startServer(args, { EXPORT_DIR: exportDir, FAULT: 'export-write-stalls' });
      children.push(first.child);
      const writing = childMessage(first.child, (m) => (m as { exportWriting?: string }).exportWriting);
      const created = await first.call<Job>('POST', '/api/ExportJob', { Resource: 'CardUser', Query: {} });
      expect(created.status, created.msg).toBe(200);
      const jobId = created.data.Id;
      const partial = await Promise.race([
        writing,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the export never wrote its file through fs.writeFile')), 30_000),
        ),
      ]);
      // Mid-write: the job says running, has no file to offer, and the download is refused.
      const running = await first.call<Job>('GET', `/api/ExportJob/${jobId}`);
      expect(running.data).toMatchObject({ Status: 'running', FileName: null });
      expect((await first.request('GET', `/api/ExportJob/${jobId}/Download`)).status).toBe(409);
      await killHard(first.child);
      // The kill left a half-written file behind: what the restart has to deal with.
      expect(listFiles(exportDir)).toEqual([path.basename(partial)]);
      const partialSize = fs.statSync(partial).size;
      expect(partialSize).toBeGreaterThan(0);

      const second = await startServer(args, { EXPORT_DIR: exportDir });
      children.push(second.child);
      const after = await second.call<Job>('GET', `/api/ExportJob/${jobId}`);
      expect(after.data).toMatchObject({
        Status: 'failed',
        FileName: null,
        Error: 'Interrupted by a server restart; export again',
      });
      const refused = await second.request('GET', `/api/ExportJob/${jobId}/Download`);
      expect(refused.status).toBe(409);
      expect(listFiles(exportDir), 'no orphan or partial file').toEqual([]);
      const stuck = await db.kysely
        .selectFrom('ExportJob')
        .select('Id')
        .where('Status', 'in', ['pending', 'running'])
        .execute();
      expect(stuck, 'no job left pending or running').toEqual([]);

      // The queue works after the restart, and its file is whole.
      const again = await second.call<Job>('POST', '/api/ExportJob', { Resource: 'CardUser', Query: {} });
      expect(again.status, again.msg).toBe(200);
      let done: Job | undefined;
      for (let i = 0; i < 200 && done?.Status !== 'done'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        done = (await second.call<Job>('GET', `/api/ExportJob/${again.data.Id}`)).data;
      }
      expect(done).toMatchObject({ Status: 'done', RowCount: holders });
      expect(listFiles(exportDir)).toEqual([done!.FileName]);
      const file = await second.request('GET', `/api/ExportJob/${again.data.Id}/Download`);
      expect(file.status).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await file.arrayBuffer());
      expect(workbook.worksheets[0]!.rowCount).toBe(holders + 1);
      await killHard(second.child);
      report(
        `export: killed mid-write (${partialSize} bytes written); after restart the job failed, 0 files, download 409, 0 jobs pending or running; a new export whole (${holders} rows)`,
      );
    } finally {
      await db.close();
      await drop();
    }
  }, 120_000);

  it('a holder import killed mid-transaction writes no row, and the same file then imports whole', async () => {
    const ROWS = 3000;
    const KILL_AT = 100;
    const { args, dir, db, drop } = await prepared(kind, 'fault-import');
    const k = db.kysely;
    const state = async () => {
      const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string }> }) =>
        Number((await query.executeTakeFirstOrThrow()).n);
      return {
        holders: await count(
          k
            .selectFrom('CardUser')
            .select(sql<number>`count(*)`.as('n'))
            .where('Name', 'like', `${PREFIX}%`),
        ),
        changes: await count(
          k
            .selectFrom('ChangeRecord')
            .select(sql<number>`count(*)`.as('n'))
            .where('HolderName', 'like', `${PREFIX}%`),
        ),
        cards: await count(
          k
            .selectFrom('Card')
            .innerJoin('CardUser', 'CardUser.Id', 'Card.CardUserId')
            .select(sql<number>`count(*)`.as('n'))
            .where('CardUser.Name', 'like', `${PREFIX}%`),
        ),
        audits: await count(
          k
            .selectFrom('AuditLog')
            .select(sql<number>`count(*)`.as('n'))
            .where('Entity', '=', 'CardUser')
            .where('Action', '=', 'import'),
        ),
      };
    };
    try {
      const free = await k
        .selectFrom('Card')
        .select('CardNumber')
        .where('AreaId', '=', 1)
        .where('CardUserId', 'is', null)
        .orderBy('Id')
        .limit(20)
        .execute();
      expect(free.length).toBeGreaterThan(0);

      const first = await startServer(args, {
        EXPORT_DIR: path.join(dir, 'exports'),
        FAULT: `holder-inserts=${KILL_AT}`,
      });
      children.push(first.child);
      // The area's own template, filled with ROWS holders; the first ones take the area's free cards.
      const template = await first.request('GET', '/api/CardUser/ImportTemplate');
      expect(template.status).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await template.arrayBuffer());
      const sheet = workbook.worksheets[0]!;
      for (let i = 0; i < ROWS; i++) {
        const card = free[i]?.CardNumber ?? '';
        sheet.addRow([holderName(i), '', '', '', '', '', '', card, '2026-01-01', '2027-12-31', '']);
      }
      const content = Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
      const before = await state();
      expect(before).toMatchObject({ holders: 0, changes: 0, cards: 0 });

      const inserting = childMessage(first.child, (m) => (m as { holderInserts?: number }).holderInserts);
      const importing = first.call('POST', '/api/CardUser/Import', {
        FileName: 'holders.xlsx',
        Content: content,
      });
      // The server must still be inserting when told to die (an answer first would mean it never got there).
      const answeredFirst = importing.then((r) => {
        throw new Error(`the import answered before the kill: ${r.status} ${r.msg}`);
      });
      expect(await Promise.race([inserting, answeredFirst])).toBe(KILL_AT);
      await killHard(first.child);
      // Killed before it could answer: the import was cut mid-way.
      await expect(importing).rejects.toThrow();

      const second = await startServer(args, { EXPORT_DIR: path.join(dir, 'exports') });
      children.push(second.child);
      const afterKill = await state();
      // One transaction: nothing of it, not the holders, their cards, change records or the audit entry.
      expect(afterKill).toEqual(before);

      const retried = await second.call<{ Imported: number }>('POST', '/api/CardUser/Import', {
        FileName: 'holders.xlsx',
        Content: content,
      });
      expect(retried.status, retried.msg).toBe(200);
      expect(retried.data.Imported).toBe(ROWS);
      expect(await state()).toEqual({
        holders: ROWS,
        changes: ROWS,
        cards: free.length,
        audits: before.audits + 1,
      });
      await killHard(second.child);
      report(
        `holder import: ${ROWS} rows killed after ${KILL_AT} inserts, after restart 0 holders, 0 change records, 0 cards, 0 audit entries; retried: ${ROWS} holders, ${ROWS} change records, ${free.length} cards, 1 audit entry`,
      );
    } finally {
      await db.close();
      await drop();
    }
  }, 180_000);

  it('reports what it checked', () => {
    console.log(`[${kind}] faults:\n  ${(checked[kind] ?? []).join('\n  ')}`);
    expect(checked[kind]).toHaveLength(2);
  });
});
