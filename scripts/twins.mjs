// `node scripts/twins.mjs [--list] [--most N]`: logic twins per 10,000 non-test source lines (issue 18).
// Copies the non-test sources of packages/*/src, leaving out what is declaration or data rather than logic
// (i18n catalogues, the API contract declarations, enums, the demo place, migrations, table declarations,
// catalogues, fixtures, generated files), into a temporary folder, runs the tool library's `duplicates`
// over it (pairs of places sharing six or more lines of the same shape) and prints the pairs, the lines
// read and the pairs per 10,000 lines. --list prints the pairs themselves.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// scripts/measures.mjs uses `measureTwins()`.
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

const SOURCE = /\.(ts|tsx|mjs)$/;
/** What is declaration or data rather than logic, left out of the count. */
export const LEFT_OUT = [
  /\.test\.tsx?$/,
  /\/test\//,
  /\/i18n\//,
  /\/contract\//,
  /\/enums\//,
  /\/demo\//,
  /\/migrations\//,
  /-migrations\.ts$/,
  /\/migration(-[a-z]+)?\.ts$/,
  /\/tables(-[a-z]+)?\.ts$/,
  /catalog(ue)?s?\.ts$/,
  /fixtures?\.ts$/,
  /\.gen\.ts$/,
  /\.d\.ts$/,
  // The built-in resource tree: the permission codes under their menus, data.
  /\/resource-tree\.ts$/,
];

function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * The twins of the working tree (or of the commit `rev`): `{ out` (the tool's answer), `files`, `lines`,
 * `pairs` (all), `logic` (not boilerplate) }`. `most` rows are asked for; the boilerplate rows come last, so
 * a cut list leaves out boilerplate first.
 */
export function measureTwins({ rev, most = 200 } = {}) {
  let from = root;
  if (rev) {
    from = fs.mkdtempSync(path.join(os.tmpdir(), 'twins-rev-'));
    execFileSync('sh', ['-c', `git -C "${root}" archive ${rev} packages | tar -x -C "${from}"`]);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'twins-'));
  let lines = 0;
  let files = 0;
  for (const pkg of fs.readdirSync(path.join(from, 'packages'))) {
    const src = path.join(from, 'packages', pkg, 'src');
    if (!fs.existsSync(src)) continue;
    for (const file of walk(src)) {
      const rel = path.relative(from, file).split(path.sep).join('/');
      if (!SOURCE.test(rel) || LEFT_OUT.some((re) => re.test('/' + rel))) continue;
      const text = fs.readFileSync(file, 'utf8');
      lines += text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      files += 1;
      fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
      fs.writeFileSync(path.join(tmp, rel), text);
    }
  }

  const out = execFileSync('duplicates', ['--repo', tmp, '--most', String(most), '--seconds', '300'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  fs.rmSync(tmp, { recursive: true, force: true });
  if (from !== root) fs.rmSync(from, { recursive: true, force: true });
  const head = out.split('\n')[0];
  const rows = out.split('\n').filter((l) => /^D\d+ /.test(l));
  const more = /\(\+(\d+) more pairs\)/.exec(out);
  const pairs = rows.length + (more ? Number(more[1]) : 0);
  // The tool lists boilerplate rows last (most of what they share is thin, or a shape recurring across a
  // folder: route declarations, list columns); the logic twins are the other rows.
  const logic = rows.filter((l) => !/boilerplate/.test(l)).length;
  return { out, head, files, lines, pairs, logic };
}

/** Pairs per 10,000 lines, one decimal. */
export const per10k = (n, lines) => ((n * 10000) / lines).toFixed(1);

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const mostAt = args.indexOf('--most');
  const revAt = args.indexOf('--rev');
  const { out, head, files, lines, pairs, logic } = measureTwins({
    rev: revAt >= 0 ? args[revAt + 1] : undefined,
    most: mostAt >= 0 ? Number(args[mostAt + 1]) : 200,
  });
  console.log(args.includes('--list') ? out.trimEnd() : head);
  console.log(`files ${files}, lines ${lines}`);
  console.log(`all pairs ${pairs}, per 10,000 lines ${per10k(pairs, lines)}`);
  console.log(`logic twins (not boilerplate) ${logic}, per 10,000 lines ${per10k(logic, lines)}`);
}
