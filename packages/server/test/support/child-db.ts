import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Db } from '../../src/db/database.ts';

export type ChildDbKind = 'sqlite' | 'postgres';

/** SQLite always, PostgreSQL with TEST_DATABASE_URL: the databases the process-kill tests run on. */
export const childDbKinds: ChildDbKind[] = [
  'sqlite',
  ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : []),
];

export interface ChildDatabase {
  /** The child's command-line arguments naming it: a SQLite file, or the PostgreSQL URL and schema. */
  args: string[];
  /** A temporary folder of the test's own (the SQLite file lives there; exports may go there too). */
  dir: string;
  /** Opens it in the test process (again after a kill: a restart). */
  open(): Db;
  /** Removes the folder and the schema. */
  drop(): Promise<void>;
}

/**
 * A database that a child process opens as well as the test (seed-child, wg-child, server-child): a SQLite file
 * in a fresh folder, or a fresh schema on the test PostgreSQL server.
 */
export async function childDatabase(kind: ChildDbKind, prefix: string): Promise<ChildDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `gatehouse-${prefix}-`));
  const removeDir = async () => fs.rmSync(dir, { recursive: true, force: true });
  if (kind === 'sqlite') {
    const file = path.join(dir, `${prefix}.db`);
    return { args: [file], dir, open: () => openDatabase(file), drop: removeDir };
  }
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${prefix.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    args: [url, schema],
    dir,
    open: () => openDatabase(url, { pgSchema: schema }),
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
      await removeDir();
    },
  };
}

/** A TypeScript child process with an IPC channel (messages through `process.send`), run through tsx. */
export function forkChild(script: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  return fork(script, args, {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
}

/** Resolves with the child's first message that `accept` takes; rejects if the child exits before one. */
export function childMessage<T>(
  child: ChildProcess,
  accept: (message: unknown) => T | undefined,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      const value = accept(message);
      if (value === undefined) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(value);
    };
    const onExit = (code: number | null, signal: string | null) =>
      reject(new Error(`child process exited (${signal ?? code}) before the awaited message`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** SIGKILL, as a crash or the OOM killer would: no handler runs, nothing is flushed. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
