import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/**
 * Issue 27, item 3 (minor): a start whose WG listener port is taken stops with one line naming the port and the
 * setting (WG_LISTEN) and a non-zero exit code, instead of dying with the listener thread's stack trace.
 */
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = path.join(REPO_ROOT, 'packages/server/src/main.ts');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

it('stops in one line naming WG_LISTEN and the port when another program holds it', async () => {
  const holder = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => holder.bind(0, '127.0.0.1', resolve));
  const taken = holder.address().port;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-wg-listen-'));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: path.join(dir, 'gatehouse.db'),
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
        SEED: 'none',
        ADMIN_PASSWORD: 'Admin#Test2026',
        SIMULATOR: 'off',
        WG: 'on',
        WG_LISTEN: `127.0.0.1:${taken}`,
        WEB_DIST: '/nonexistent',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^Gatehouse cannot start\. /);
    expect(lines[0]).toContain(`UDP port ${taken} on 127.0.0.1 is already in use`);
    expect(lines[0]).toContain(`WG_LISTEN=127.0.0.1:${taken}`);
  } finally {
    holder.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
