import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each test file took in a recent CI run (`scripts/test-durations.mjs` writes them from `npm test`'s
 * reports). On a clean clone vitest has no timings of its own and starts the largest files first; the two screen
 * walks are small files of the two longest runs, so they ran last, one of them alone on a core at the end.
 */
const durations: Record<string, number> = JSON.parse(
  readFileSync(new URL('./test-durations.json', import.meta.url), 'utf8'),
);

/** Longest first within each project, files not timed yet (new ones) before them, so the runs end together. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (f: TestSpecification) =>
      durations[relative(this.ctx.config.root, f.moduleId)] ?? Number.POSITIVE_INFINITY;
    // Stable: files of the same time (two new ones) keep vitest's order.
    return [...(await super.sort(files))].sort((a, b) => {
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      const [sa, sb] = [seconds(a), seconds(b)];
      return sa === sb ? 0 : sb - sa;
    });
  }
}

// One runner, four projects: pure rules, server on real databases, web components, browser flows.
export default defineConfig({
  test: {
    sequence: { sequencer: LongestFirst },
    // Two test files at once even on two cores (vitest's default there is one): the server's files wait on their
    // databases, child processes and timers most of the time. On 2 cores with PostgreSQL, the unit and database
    // suite took 393 s, against 1,014 s one file at a time in the last CI run (docs/performance.md, "The test suite").
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'shared',
          root: 'packages/shared',
          include: ['test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          root: 'packages/server',
          // A worker runs its files one after another in one module graph instead of importing the server anew
          // for each of the 107 files: import took 327 s summed (of 718 s of wall time) with isolation, 36 s
          // without. What a file starts it stops (servers, gateways, databases, workers); what module state is
          // shared is keyed by its database (count-cache) or set once and the same for every file (the export
          // and dependents registries, time-zone and statement caches).
          isolate: false,
          include: ['test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Files run side by side on PostgreSQL too: each has its own schema (support/harness.ts), and what is
          // database-wide is keyed by it (LISTEN/NOTIFY channel namespaces, advisory lock names).
        },
      },
      {
        test: {
          name: 'web',
          root: 'packages/web',
          include: ['test/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
      {
        test: {
          name: 'ocpp-simulator',
          root: 'packages/ocpp-simulator',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'wg-simulator',
          root: 'packages/wg-simulator',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
        },
      },
      // The browser flows two files at a time (the workers' maximum): every file has its own server, database,
      // Chromium and, when it runs the demo's devices, its own UDP ports (e2e/support/suite.ts, devicePorts).
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['**/*.e2e.ts'],
          environment: 'node',
          // The seeded demo database, made once and copied by each file's server (support/global-setup.ts).
          globalSetup: ['support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
