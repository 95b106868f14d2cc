// `npm run lint`: ESLint and Prettier in one lane, the TypeScript checks of every package in the other, side by
// side. Each tool is single-threaded, and one after the other they took about 4 minutes of a CI run on two cores;
// the lanes' output is printed whole, one lane after the other, so it reads as before.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const tsc = (project) => [bin('tsc'), ['-p', project]];

// Balanced by their times on two cores (a CI run of 29 Nov): ESLint 25 s and Prettier 25 s, then the tsc of e2e and
// bench (15 s each) in one lane; the five packages' tsc (67 s) in the other. Before, one lane held all seven (97 s).
const lanes = [
  [[bin('eslint'), ['.']], [bin('prettier'), ['--check', '.']], tsc('e2e'), tsc('bench')],
  [
    'packages/shared',
    'packages/server',
    'packages/web',
    'packages/ocpp-simulator',
    'packages/wg-simulator',
  ].map(tsc),
];

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: process.env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

async function lane(steps) {
  let text = '';
  for (const [command, args] of steps) {
    const started = Date.now();
    const { code, output } = await run(command, args);
    const name = `${path.basename(command)} ${args.join(' ')}`;
    text += `> ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)\n${output}`;
    // A lane stops at its first failure, as `a && b` did.
    if (code !== 0) return { code, text: `${text}${name}: exit code ${code}\n` };
  }
  return { code: 0, text };
}

const results = await Promise.all(lanes.map(lane));
for (const { text } of results) process.stdout.write(text);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
