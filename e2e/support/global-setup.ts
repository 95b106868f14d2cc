import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { NO_DEVICES, REPO_ROOT, serverEnv } from './server.ts';

/**
 * Once per e2e run, before any file: the demo database a test server without devices seeds on its first start,
 * migrated and seeded once (about half of such a server's start on two cores) and copied by each of those
 * servers (server.ts, E2E_DEMO_TEMPLATE). The servers that run the demo's devices seed their own: their
 * controllers' ports differ per worker and are stored with the seed. The data is as old as the run (minutes),
 * as a file's own server's data is as old as the file.
 */
export default function setup(project: TestProject): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-e2e-template-'));
  const file = path.join(dir, 'demo.db');
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'e2e/support/demo-template.ts')],
    { cwd: REPO_ROOT, env: serverEnv(file, 0, NO_DEVICES), encoding: 'utf8' },
  );
  if (result.status !== 0)
    throw new Error(`The e2e demo template was not made:\n${result.stdout}\n${result.stderr}`);
  console.log(`e2e demo template seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide('e2eDemoTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
