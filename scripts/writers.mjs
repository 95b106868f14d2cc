// Which modules write each table (issue 28, "one writer per state"): read from the server's source, not run.
// A write is a Kysely statement naming its table (`insertInto('T')`, `updateTable('T')`, `deleteFrom('T')`,
// `replaceInto`, `mergeInto`) or a raw statement in a `sql` template (`insert into "T"`, `update "T"`,
// `delete from "T"`). Left out, with why:
// - src/demo and system/seed.ts: they fill an empty database once, before any service runs;
// - the `up`/`down` of a migration: they shape or backfill the schema, not its rows' state;
// - statements whose table is a variable (the resource store, link sets, payments' `kind`): they write for
//   the declaration or caller that hands them the table, and are listed apart as `handed`.
// The writer of a statement is its module: modules/<module>/<feature> (a file at a module's root counts as
// modules/<module>), platform/<folder> or the platform file itself, gateways/<gateway>, db, cli.
// `node scripts/writers.mjs` prints the table; scripts/measures.mjs and packages/server/test/writers.test.ts
// use `tableWriters()`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const SRC = 'packages/server/src';
const SKIPPED_FILES = [/^demo\//, /^modules\/system\/seed\.ts$/];
const KYSELY_WRITES = new Set(['insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto']);
const RAW_WRITE = /\b(?:insert\s+into|update|delete\s+from)\s+"([A-Za-z]+)"/gi;

function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.d\.ts$/.test(entry.name)) yield full;
  }
}

/** The module a file under packages/server/src belongs to, for the one-writer rule. */
export function moduleOf(rel) {
  const parts = rel.split('/');
  if (parts[0] === 'modules')
    return parts.length > 3 ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/');
  if (parts[0] === 'platform' || parts[0] === 'gateways')
    return parts.length > 2 ? parts.slice(0, 2).join('/') : parts.join('/').replace(/\.ts$/, '');
  return parts[0].replace(/\.ts$/, '');
}

function isMigrationStep(node) {
  const name = (ts.isMethodDeclaration(node) || ts.isPropertyAssignment(node)) && node.name.getText();
  return name === 'up' || name === 'down';
}

/**
 * Every table written by the server's source: `{ tables: Map<table, Map<module, string[] (file:line)>>,
 * handed: string[] (file:line of statements whose table is a variable) }`.
 */
export function tableWriters(repoRoot = root) {
  const tables = new Map();
  const handed = [];
  const src = path.join(repoRoot, SRC);
  const note = (table, rel, line) => {
    const mod = moduleOf(rel);
    if (!tables.has(table)) tables.set(table, new Map());
    const byModule = tables.get(table);
    if (!byModule.has(mod)) byModule.set(mod, []);
    byModule.get(mod).push(`${rel}:${line}`);
  };
  for (const file of walk(src)) {
    const rel = path.relative(src, file).split(path.sep).join('/');
    if (SKIPPED_FILES.some((re) => re.test(rel))) continue;
    const text = fs.readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const lineOf = (node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    const visit = (node) => {
      if (isMigrationStep(node)) return;
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        KYSELY_WRITES.has(node.expression.name.text)
      ) {
        const arg = node.arguments[0];
        if (arg && ts.isStringLiteralLike(arg)) note(arg.text.split(/\s+as\s+/)[0], rel, lineOf(node));
        else handed.push(`${rel}:${lineOf(node)}`);
      }
      if (ts.isTaggedTemplateExpression(node) && node.tag.getText(sf) === 'sql') {
        const raw = node.template.getText(sf);
        for (const m of raw.matchAll(RAW_WRITE)) note(m[1], rel, lineOf(node));
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return { tables, handed };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { tables, handed } = tableWriters();
  for (const [table, byModule] of [...tables].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`${table.padEnd(28)} ${[...byModule.keys()].sort().join(', ')}`);
  console.log(
    `\nwrites of a table handed in (the resource store, link sets, payments): ${handed.join(', ')}`,
  );
}
