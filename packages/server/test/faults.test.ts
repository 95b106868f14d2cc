import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, seedIfEmpty } from '../src/assembly.ts';
import { childDatabase, childDbKinds, childMessage, forkChild, killHard } from './support/child-db.ts';
import { ADMIN_PASSWORD } from './support/harness.ts';

// Faults: the real server in a child process (support/server-child.ts), killed with SIGKILL half-way through
// a holder import, then started again on the same database. What a restart must find: complete data, nothing
// half-written. (An export killed mid-job, its file kept in the database: exports-kill.test.ts; the seed's own
// kill test is seed-atomic.test.ts.)

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

/** What each kill test checked, printed at the end per database. */
const checked: Record<string, string[]> = {};

describe.each(childDbKinds)('[%s] faults: SIGKILL mid-way, then restart', (kind) => {
  const report = (line: string) => (checked[kind] ??= []).push(line);
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) await killHard(child);
  });

  it('a holder import killed mid-transaction writes no row, and the same file then imports whole', async () => {
    // Six times the kill point: the server is surely still inserting when killed (3,000 rows took 45-50 s per
    // database on a loaded two-core machine and proved nothing more).
    const ROWS = 600;
    const KILL_AT = 100;
    const { args, db, drop } = await prepared(kind, 'fault-import');
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

      const second = await startServer(args, {});
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
    expect(checked[kind]).toHaveLength(1);
  });
});
