// `npm run measures`: the house's measures (issue 28), each from the repository's own scripts, with its
// target. Recorded in docs/architecture.md, "Measures".
// - the largest source file in packages/*/src, tests left out; data files (i18n catalogues, the contract's
//   declarations, enums, the demo place, catalogues, fixtures, generated files such as messages.gen.ts) are
//   named apart: they are declarations read as tables, not logic one follows (scripts/sizes.mjs, DATA);
// - the functions over 80 lines, all of packages/*/src (demo and migrations included), listed;
// - the logic twins per 10,000 lines: the `duplicates` tool over the logic sources (scripts/twins.mjs);
// - the writers of each table: which modules' source files write it (scripts/writers.mjs).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FILE_LINES, FUNCTION_LINES, measureSizes } from './sizes.mjs';
import { measureTwins, per10k } from './twins.mjs';
import { tableWriters } from './writers.mjs';

const TARGET = { fileLines: FILE_LINES, longFunctions: 12, twinsPer10k: 15 };

// --rev REV: measure a commit (its tracked files) instead of the working tree, as the docs record it.
const revAt = process.argv.indexOf('--rev');
const rev = revAt >= 0 ? process.argv[revAt + 1] : undefined;
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
let from = root;
if (rev) {
  from = fs.mkdtempSync(path.join(os.tmpdir(), 'measures-rev-'));
  execFileSync('sh', ['-c', `git -C "${root}" archive ${rev} packages | tar -x -C "${from}"`]);
}
const commit = execFileSync('git', ['rev-parse', '--short', rev ?? 'HEAD'], { encoding: 'utf8' }).trim();
const dirty =
  !rev && execFileSync('git', ['status', '--porcelain', '--', 'packages'], { encoding: 'utf8' }).trim();
console.log(
  `Gatehouse measures, ${new Date().toISOString().slice(0, 10)}, ${commit}${dirty ? ' + changes' : ''}\n`,
);

const sizes = measureSizes(from);
console.log(
  `largest source file: ${sizes.largest.lines} lines, ${sizes.largest.rel} (target: at most ${TARGET.fileLines})`,
);
console.log(
  `  files over ${FILE_LINES} lines: ${sizes.longFiles.map((f) => `${f.rel} ${f.lines}`).join(', ') || 'none'}`,
);
console.log(
  `  data left out (declarations and generated files: scripts/sizes.mjs DATA): largest ${sizes.largestData.rel} ${sizes.largestData.lines}`,
);

console.log(
  `\nfunctions over ${FUNCTION_LINES} lines: ${sizes.longFunctions.length} (target: at most ${TARGET.longFunctions})`,
);
for (const f of sizes.longFunctions)
  console.log(`  ${String(f.lines).padStart(4)}  ${f.rel}:${f.start}  ${f.name}`);

const twins = measureTwins({ rev });
console.log(
  `\nlogic twins: ${twins.logic} in ${twins.lines} lines, ${per10k(twins.logic, twins.lines)} per 10,000 lines (target: at most ${TARGET.twinsPer10k}); all pairs, boilerplate included: ${twins.pairs}, ${per10k(twins.pairs, twins.lines)} per 10,000`,
);

const { tables, handed } = tableWriters(from);
if (from !== root) fs.rmSync(from, { recursive: true, force: true });
const shared = [...tables].filter(([, byModule]) => byModule.size > 1);
console.log(
  `\nwriters per table: ${tables.size} tables written, ${shared.length} by more than one module (target: none)`,
);
for (const [table, byModule] of [...tables].sort(([a], [b]) => a.localeCompare(b)))
  console.log(
    `  ${byModule.size > 1 ? '*' : ' '} ${table.padEnd(26)} ${[...byModule.keys()].sort().join(', ')}`,
  );
console.log(
  `  (statements writing a table handed to them: ${handed.length}, in the resource store, link sets, payments)`,
);
