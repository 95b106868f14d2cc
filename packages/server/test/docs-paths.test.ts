import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md is the picture of the tree a newcomer reads first (issue 28, "docs true"): every path
 * it names must exist. Paths are named two ways: in backticks (`platform/route.ts`, `garage/charge-host/`,
 * `PowerOffDialog.tsx`), relative to the repository or to one of the folders the page speaks from (the
 * server's src and its modules, shared's src, the web's src and its pages); and as the entries of its tree
 * blocks, relative to the block's first line (`packages/server/src/`). A segment in angle brackets
 * (`modules/<module>/`) stands for any folder.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const DOC = 'docs/architecture.md';

const subfolders = (rel: string) =>
  fs
    .readdirSync(path.join(root, rel), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => `${rel}/${e.name}`);

/** The folders a backticked path may be relative to. */
const BASES = [
  '',
  'packages/server',
  'packages/server/src',
  'packages/server/src/modules',
  ...subfolders('packages/server/src/modules'),
  'packages/shared/src',
  'packages/web/src',
  'packages/web/src/pages',
  ...subfolders('packages/web/src/pages'),
];

/** Every file and folder under the packages and tools, by name: where a bare file name may stand. */
function namesUnder(dirs: string[]): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
      names.add(e.name);
      if (e.isDirectory()) walk(path.join(dir, e.name));
    }
  };
  for (const d of dirs) walk(path.join(root, d));
  // The repository's own top-level files (vitest.config.ts, package.json) may be named bare too.
  for (const e of fs.readdirSync(root, { withFileTypes: true })) if (e.isFile()) names.add(e.name);
  return names;
}
const NAMES = namesUnder(['packages', 'scripts', 'eslint', 'bench', 'e2e', 'docs']);

/** Whether `rel` exists under `base`, a segment in angle brackets matching any folder. */
function existsAt(base: string, rel: string): boolean {
  const segments = rel.replace(/\/$/, '').split('/');
  const walk = (dir: string, i: number): boolean => {
    if (i === segments.length) return fs.existsSync(dir);
    const seg = segments[i]!;
    if (seg.startsWith('<')) {
      if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return false;
      return fs
        .readdirSync(dir, { withFileTypes: true })
        .some((e) => e.isDirectory() && walk(path.join(dir, e.name), i + 1));
    }
    return walk(path.join(dir, seg), i + 1);
  };
  return walk(path.join(root, base), 0);
}

const exists = (rel: string, bases: string[] = BASES) =>
  rel.includes('/') ? bases.some((b) => existsAt(b, rel)) : NAMES.has(rel.replace(/\/$/, ''));

/**
 * A backticked token that names a file or folder: not a URL or route (they start with a slash), an expression,
 * or one of the repository's lint rules (`gatehouse/layers`).
 */
const PATH = /^[\w.<>@-]+(\/[\w.<>@-]+)*\/?$/;
const isPath = (token: string) =>
  PATH.test(token) &&
  !token.startsWith('gatehouse/') &&
  /[a-z]/i.test(token) &&
  (token.includes('/') || /\.(tsx?|mjs|js|md|json)$/.test(token));

/** The paths in backticks, outside the tree blocks. */
function backtickedPaths(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!).filter(isPath);
}

/**
 * The entries of the tree blocks: a block whose first line is a folder (`packages/server/src/`) lists its
 * entries two spaces in and their own entries four spaces in; a block without one lists paths from the
 * repository at the margin. An entry is the text before its description (two spaces or more), and names
 * siblings separated by commas (`gateways/wg, ocpp`).
 */
function treeEntries(text: string): string[] {
  const entries: string[] = [];
  for (const [, block] of text.matchAll(/```\n([\s\S]*?)```/g)) {
    const lines = block!.split('\n').filter((l) => l.trim());
    const head = /^(\S+\/)\s*$/.exec(lines[0]!);
    const base = head ? head[1]! : '';
    let parent = base;
    for (const line of head ? lines.slice(1) : lines) {
      const indent = line.length - line.trimStart().length;
      if (indent !== (head ? 2 : 0) && !(head && indent === 4)) continue;
      const names = line
        .trim()
        .split(/\s{2,}/)[0]!
        .split(/,\s*/);
      const dir = indent === 4 ? parent : base;
      const first = names[0]!;
      const siblingsIn = dir + (first.includes('/') ? first.replace(/[^/]+\/?$/, '') : '');
      names.forEach((name, i) => {
        if (name === '…') return;
        entries.push(i === 0 ? dir + name : siblingsIn + name);
      });
      if (indent !== 4 && first.endsWith('/')) parent = dir + first;
    }
  }
  return entries;
}

describe(`${DOC} names only what exists`, () => {
  const text = fs.readFileSync(path.join(root, DOC), 'utf8');

  it('every backticked path exists', () => {
    const paths = backtickedPaths(text);
    expect(paths.length).toBeGreaterThan(50);
    expect(paths.filter((p) => !exists(p))).toEqual([]);
  });

  it("every entry of the tree blocks exists where the block's first line says", () => {
    const entries = treeEntries(text);
    expect(entries).toEqual(
      expect.arrayContaining(['packages/server/src/platform/', 'modules/<module>/index.ts']),
    );
    const serverSrc = ['', 'packages/server/src'];
    expect(entries.filter((e) => !exists(e, serverSrc))).toEqual([]);
  });

  it('tells a path that does not exist (the reader itself)', () => {
    expect(exists('platform/route.ts')).toBe(true);
    expect(exists('modules/<module>/index.ts')).toBe(true);
    expect(exists('db/migrations')).toBe(false);
    expect(exists('NoSuchDialog.tsx')).toBe(false);
    expect(
      treeEntries(
        '```\nsrc/\n  gateways/wg, ocpp    two\n  x/                   y\n    a.ts               b\n```\n',
      ),
    ).toEqual(['src/gateways/wg', 'src/gateways/ocpp', 'src/x/', 'src/x/a.ts']);
  });
});

describe('docs/performance.md leads with the current figure of every benchmark', () => {
  const text = fs.readFileSync(path.join(root, 'docs/performance.md'), 'utf8');
  const lead = text.slice(0, text.indexOf('\n# History'));
  const scripts = Object.keys(
    (
      JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts,
  );

  it('has a row, with its command and a date, for every bench script in package.json and the test suite', () => {
    const rows = lead
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| Benchmark') && !l.startsWith('|---'))
      .map((l) => l.trimEnd().split(' | '));
    // The command a row names (`npm run bench:wg`, `npm test`), up to its backtick or first space.
    const named = new Set(
      rows.flatMap((r) => [...r[1]!.matchAll(/\bnpm (?:run )?([\w:]+)/g)].map((m) => m[1])),
    );
    // bench:fuzz is a fuzzing run of the attack tests, not a figure.
    const benches = scripts.filter((s) => s.startsWith('bench') && s !== 'bench:fuzz');
    expect([...benches, 'test'].filter((b) => !named.has(b))).toEqual([]);
    for (const r of rows) expect(r.at(-1)).toMatch(/\d{1,2}(–\d{1,2})? [A-Z][a-z]{2} \d{4}/);
  });
});
