import type { Db } from '../db/database.ts';

/**
 * What every module's demo seeder receives. Declared apart from the seeder list (demo.ts), which imports the
 * modules: a module's seeder imports this type without importing its own caller.
 */
export interface DemoContext {
  /** Ids of the demo areas, in DEMO_AREAS order. */
  areaIds: number[];
  now: number;
  /** Argon2 hash of the demo password, computed once. */
  passwordHash: string;
  /**
   * Volume factor for bulk demo data (1 = the full demo: 200,000 swipe records, 100,000 charging sessions).
   * Test databases seed with a small factor; counts are Math.max(1, Math.round(full × scale)).
   */
  scale: number;
  /**
   * Seed charging sessions running now (fixtures of tests and of screens without simulators). The demo a person
   * starts with its simulated charge points seeds none: no simulator would carry them, so they would never
   * close (issue 21, "phantom sessions"); sessions start and end there through the simulator.
   */
  runningSessions?: boolean;
  /**
   * The demo's simulated door controllers listen on loopback from this UDP port on (61000 by default: area ×
   * 100 + index above it). Two demos on one machine (end-to-end files side by side) each take their own range.
   */
  wgPortBase?: number;
  /** Raw SQLite handle for fast bulk inserts (absent on PostgreSQL, where batched Kysely inserts are used). */
  sqlite?: Db['sqlite'];
}

export type DemoSeeder = (db: Db, ctx: DemoContext) => Promise<void>;
