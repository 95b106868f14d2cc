// `npm test`: unit and database tests (SQLite always, PostgreSQL when TEST_DATABASE_URL is set), then a
// fresh web build and the Chromium end-to-end flows. Ends with one plain summary line that CI reads.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const extra = process.argv.slice(2);
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-test-'));
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');

function run(label, args, command = process.execPath) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  return result.status ?? 1;
}

function vitestRun(label, projects, report) {
  const args = [
    vitest,
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...extra,
  ];
  return run(label, args);
}

const unitReport = path.join(reportDir, 'unit.json');
const e2eReport = path.join(reportDir, 'e2e.json');
/** Each vitest run's exit code by its report: one that failed with no failed test had an unhandled error. */
const exits = new Map();
exits.set(
  unitReport,
  vitestRun(
    'unit and database tests',
    ['shared', 'server', 'web', 'ocpp-simulator', 'wg-simulator'],
    unitReport,
  ),
);
let status = exits.get(unitReport);

if (process.env.SKIP_E2E !== '1') {
  const build = run('web build', ['run', 'build', '-w', 'packages/web'], 'npm');
  status ||= build;
  if (build === 0) {
    exits.set(e2eReport, vitestRun('end-to-end tests (Chromium)', ['e2e'], e2eReport));
    status ||= exits.get(e2eReport);
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
let postgres = 0;
const failures = [];
for (const file of [unitReport, e2eReport]) {
  if (!fs.existsSync(file)) continue;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  for (const suite of report.testResults)
    for (const t of suite.assertionResults) {
      if (t.status === 'passed' && t.ancestorTitles.some((a) => a.startsWith('[postgres]'))) postgres++;
      if (t.status === 'failed')
        failures.push(
          `${path.relative(root, suite.name)} > ${[...t.ancestorTitles, t.title].join(' > ')}\n` +
            (t.failureMessages ?? [])
              .join('\n')
              .split('\n')
              .slice(0, 6)
              .map((l) => `    ${l}`)
              .join('\n'),
        );
    }
  if (
    exits.get(file) !== 0 &&
    report.numFailedTests === 0 &&
    report.testResults.every((r) => r.status !== 'failed')
  )
    failures.push(
      `${path.basename(file, '.json')} run: vitest exited with code ${exits.get(file)} and no test failed: an unhandled error (see "Unhandled Errors" above)`,
    );
  // A file that failed outside any test (an import error, a hook) counts no test: name it too.
  for (const suite of report.testResults)
    if (suite.status === 'failed' && !suite.assertionResults.some((t) => t.status === 'failed'))
      failures.push(
        `${path.relative(root, suite.name)}\n    ${(suite.message ?? '').split('\n').slice(0, 6).join('\n    ')}`,
      );
}
// CI shows the end of the output: the failures are repeated here, last, so that end names them.
if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `- ${f}`).join('\n')}`);
console.log(
  `\nPostgreSQL: ${process.env.TEST_DATABASE_URL ? `${postgres} database tests passed on ${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')}` : 'not configured (set TEST_DATABASE_URL)'}`,
);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(status || (failed > 0 ? 1 : 0));
