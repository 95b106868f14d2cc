// `node scripts/test-durations.mjs REPORT.json...`: writes test-durations.json, the seconds each test file took,
// from the JSON reports `npm test` writes (it prints their folder), so that a clean clone's run starts the longest
// files first (vitest.config.ts, LongestFirst). Files not in the reports keep their time.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const target = path.join(root, 'test-durations.json');
const reports = process.argv.slice(2);
if (reports.length === 0) {
  console.error('usage: node scripts/test-durations.mjs REPORT.json...');
  process.exit(2);
}
/** The file's path in this checkout: the report may come from another clone (CI's), so its longest suffix here. */
function here(file) {
  const parts = path.resolve(file).split(path.sep).filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    const candidate = parts.slice(i).join('/');
    if (fs.existsSync(path.join(root, candidate))) return candidate;
  }
  return null;
}

const durations = fs.existsSync(target) ? JSON.parse(fs.readFileSync(target, 'utf8')) : {};
for (const report of reports)
  for (const file of JSON.parse(fs.readFileSync(report, 'utf8')).testResults) {
    const name = here(file.name);
    if (name) durations[name] = Math.round((file.endTime - file.startTime) / 100) / 10;
  }
// Only files that still exist, in a stable order so the diff of an update reads.
const kept = Object.keys(durations)
  .filter((file) => fs.existsSync(path.join(root, file)))
  .sort();
fs.writeFileSync(
  target,
  `${JSON.stringify(Object.fromEntries(kept.map((f) => [f, durations[f]])), null, 2)}\n`,
);
console.log(`${target}: ${kept.length} files`);
