import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The repository root, where eslint.config.js lives. */
const root = path.resolve(import.meta.dirname, '../../..');

async function layerMessages(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'gatehouse/layers').map((m) => m.message);
}

describe('the layer rule (eslint gatehouse/layers)', () => {
  it('fails on platform importing a module', async () => {
    const messages = await layerMessages(
      'packages/server/src/platform/upward.ts',
      "import { systemModule } from '../modules/system/index.ts';\nexport const face = systemModule;\n",
    );
    expect(messages).toEqual([expect.stringContaining('platform/ never imports a module')]);
  });

  it('fails on a module reaching past another module face, and passes through the face', async () => {
    expect(
      await layerMessages(
        'packages/server/src/modules/garage/charge-order/upward.ts',
        "import { ISSUE } from '../../access-control/card-user-link-channel/lifecycle.ts';\nexport const x = ISSUE;\n",
      ),
    ).toEqual([expect.stringContaining('modules/access-control/index.ts')]);
    expect(
      await layerMessages(
        'packages/server/src/modules/garage/charge-order/upward.ts',
        "import { ISSUE } from '../../access-control/index.ts';\nexport const x = ISSUE;\n",
      ),
    ).toEqual([]);
  });

  it('fails on shared importing anything of ours, and on server and web importing each other', async () => {
    expect(
      await layerMessages(
        'packages/shared/src/upward.ts',
        "import { buildApp } from '../../server/src/app.ts';\nimport type { X } from '@gatehouse/web';\nexport const x: X = buildApp;\n",
      ),
    ).toHaveLength(2);
    expect(
      await layerMessages('packages/web/src/upward.ts', "export { buildApp } from '@gatehouse/server';\n"),
    ).toEqual([expect.stringContaining('never imports the server')]);
    expect(
      await layerMessages('packages/server/src/upward.ts', "export * from '../../web/src/main.tsx';\n"),
    ).toEqual([expect.stringContaining('never imports the web app')]);
  });

  it('fails on db/ importing anything above the ground floor', async () => {
    expect(
      await layerMessages(
        'packages/server/src/db/upward.ts',
        "import { migrations } from '../assembly.ts';\nimport { garageModule } from '../modules/garage/index.ts';\nimport { audit } from '../platform/audit.ts';\nexport const x = [migrations, garageModule, audit];\n",
      ),
    ).toEqual([
      expect.stringContaining('db/ is the ground floor'),
      expect.stringContaining('db/ is the ground floor'),
      expect.stringContaining('db/ is the ground floor'),
    ]);
    expect(
      await layerMessages(
        'packages/server/src/db/inside.ts',
        "import type { Database } from './schema.ts';\nexport type X = Database;\n",
      ),
    ).toEqual([]);
  });

  it("fails on a gateway querying a module's table, or reaching past a module face", async () => {
    expect(
      await layerMessages(
        'packages/server/src/gateways/ocpp/upward.ts',
        [
          "import type { Db } from '../../db/database.ts';",
          "export const hosts = (db: Db) => db.kysely.selectFrom('ChargeHost').selectAll().execute();",
          "export const touch = (db: Db) => db.kysely.updateTable('ChargeHost').set({ LastSeenAt: 1 }).execute();",
          '',
        ].join('\n'),
      ),
    ).toEqual([expect.stringContaining('"ChargeHost"'), expect.stringContaining('"ChargeHost"')]);
    expect(
      await layerMessages(
        'packages/server/src/gateways/wg/upward.ts',
        "import { listSwipes } from '../../modules/access-control/door-opening-record/list.ts';\nexport const x = listSwipes;\n",
      ),
    ).toEqual([expect.stringContaining('a gateway reaches a module only through its face')]);
    expect(
      await layerMessages(
        'packages/server/src/gateways/wg/face.ts',
        "import { storeControllerRecords } from '../../modules/access-control/index.ts';\nexport const x = storeControllerRecords;\n",
      ),
    ).toEqual([]);
  });

  it('fails on production code loading the demo place or a simulator', async () => {
    expect(
      await layerMessages(
        'packages/server/src/app-upward.ts',
        "import { startControllers } from './demo/index.ts';\nimport { WgSimulator } from '@gatehouse/wg-simulator';\nexport const x = [startControllers, WgSimulator];\n",
      ),
    ).toEqual([expect.stringContaining('demo place'), expect.stringContaining('simulators')]);
    expect(
      await layerMessages(
        'packages/server/src/demo/upward.ts',
        "import { WgSimulator } from '@gatehouse/wg-simulator';\nexport const x = WgSimulator;\n",
      ),
    ).toEqual([]);
  });

  it('passes on the real tree', async () => {
    // The project's configuration, every rule but this one off: the whole tree in seconds, not a full lint.
    const eslint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => ruleId === 'gatehouse/layers' });
    const results = await eslint.lintFiles(['packages']);
    const upward = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'gatehouse/layers')
        .map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(upward).toEqual([]);
  }, 300_000);
});
