// `npm run size`: gzip sizes of the built web app, read from Vite's manifest (packages/web/dist/.vite).
// Prints the JS needed to show the login page (entry + login page + default language) and every route
// page's own chunk and extra JS; exits 1 when the login page exceeds its budget.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, 'packages/web/dist');
const manifestPath = path.join(dist, '.vite/manifest.json');
const LOGIN_BUDGET_KB = 200;

if (!fs.existsSync(manifestPath)) {
  console.error('No build manifest: run `npm run build -w packages/web` first.');
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));

const gzipCache = new Map();
function gzipBytes(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, zlib.gzipSync(fs.readFileSync(path.join(dist, file))).length);
  return gzipCache.get(file);
}

/** The chunk files a manifest entry loads before it runs: itself and its static imports, transitively. */
function closure(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`Not in the manifest: ${key}`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(dep, files);
  return files;
}

function keyMatching(pattern) {
  const key = Object.keys(manifest).find((k) => pattern.test(k));
  if (!key) throw new Error(`No manifest entry matches ${pattern}`);
  return key;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;
const total = (files) => [...files].reduce((sum, f) => sum + gzipBytes(f), 0);

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const entry = closure(entryKey);
// The login page in the default language (zh): its page, the web catalogue, antd's and dayjs' locales.
const loginKeys = [
  keyMatching(/^src\/pages\/login\/LoginPage\.tsx$/),
  keyMatching(/^src\/i18n\/zh\/index\.ts$/),
  keyMatching(/antd\/es\/locale\/zh_CN\.js$/),
  keyMatching(/dayjs\/locale\/zh-cn\.js$/),
];
const login = new Set(entry);
for (const key of loginKeys) closure(key, login);

const layout = closure(keyMatching(/^src\/layout\/Layout\.tsx$/));
const shell = new Set([...entry, ...layout]);

const routes = Object.entries(manifest)
  .filter(([key, chunk]) => chunk.isDynamicEntry && /^src\/(pages|layout)\//.test(key))
  .map(([key, chunk]) => {
    const extra = [...closure(key)].filter(
      (f) => !entry.has(f) && (key.includes('/layout/') || !shell.has(f)),
    );
    return { key, own: gzipBytes(chunk.file), extra: total(extra) };
  })
  .sort((a, b) => b.own - a.own);

const lazyLibraries = Object.entries(manifest)
  .filter(([key, chunk]) => chunk.isDynamicEntry && key.includes('node_modules') && !key.includes('/locale/'))
  .map(([key, chunk]) => ({ key: key.replace(/^.*node_modules\//, ''), own: gzipBytes(chunk.file) }));

const loginBytes = total(login);
console.log('Gatehouse web bundle (gzip)\n');
console.log(
  `login page JS (entry + login page + zh catalogue and locales): ${kb(loginBytes)} in ${login.size} files (budget ${LOGIN_BUDGET_KB} kB)`,
);
console.log(`  of which the entry chunk and its imports:                     ${kb(total(entry))}`);
console.log(
  `layout (loaded after login, beyond the entry):                  ${kb(total([...layout].filter((f) => !entry.has(f))))}`,
);
console.log(`largest route chunk: ${routes[0].key} ${kb(routes[0].own)}\n`);
console.log('route pages: own chunk / extra JS to open it after the layout');
for (const r of routes)
  console.log(`  ${r.key.padEnd(48)} ${kb(r.own).padStart(9)} ${kb(r.extra).padStart(10)}`);
console.log('\nlibraries loaded on demand:');
for (const l of lazyLibraries) console.log(`  ${l.key.padEnd(48)} ${kb(l.own).padStart(9)}`);

const leaked = lazyLibraries.filter((l) =>
  [...login].some((f) => f === manifest[Object.keys(manifest).find((k) => k.endsWith(l.key))]?.file),
);
if (leaked.length) {
  console.error(`\nOn-demand libraries reached the login page: ${leaked.map((l) => l.key).join(', ')}`);
  process.exit(1);
}
if (loginBytes > LOGIN_BUDGET_KB * 1024) {
  console.error(`\nThe login page needs ${kb(loginBytes)}, over its ${LOGIN_BUDGET_KB} kB budget.`);
  process.exit(1);
}
