import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('OCPP message types', () => {
  it('are the ones generated from the OCPP 1.6 JSON schemas ocpp-rpc validates against (not hand-written)', () => {
    // --check regenerates in memory and exits 1 when the committed file differs from the schemas.
    const run = () =>
      execFileSync(process.execPath, [path.join(root, 'scripts/ocpp-types.mjs'), '--check'], {
        cwd: root,
        stdio: 'pipe',
      });
    expect(run).not.toThrow();
  });
});
