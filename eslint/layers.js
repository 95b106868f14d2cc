import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * gatehouse/layers: imports point one way (docs/architecture.md, "Layers").
 *
 * - packages/shared imports nothing of ours: no @gatehouse/server or web, no relative path out of shared;
 * - packages/server and packages/web never import each other;
 * - packages/server/src/platform never imports packages/server/src/modules;
 * - a server module imports another module only through its face, modules/<other>/index.ts;
 * - packages/server/src/db is the ground floor: it imports nothing of the server above it;
 * - device gateways (packages/server/src/gateways) reach a module only through its face, and never query the
 *   database themselves (no Kysely query builder, no sql template): module state is the module's services';
 * - the demo place (packages/server/src/demo) and the device simulators are loaded by main.ts (and the
 *   assembly's demo seed) only: no other production file imports them.
 *
 * A local rule rather than no-restricted-imports: it resolves each specifier against the importing file, so
 * relative paths of any depth are judged by where they land, and it leaves no-restricted-imports free for
 * the per-package rules (the web's own layers).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = {
  '@gatehouse/shared': 'packages/shared',
  '@gatehouse/server': 'packages/server',
  '@gatehouse/web': 'packages/web',
};
const SERVER = 'packages/server/src';
const MODULES = 'packages/server/src/modules/';
const SIMULATORS = ['@gatehouse/wg-simulator', '@gatehouse/ocpp-simulator'];
/** Files allowed to load the demo place: the entry point and the assembly's demo seed (both on demand). */
const DEMO_LOADERS = [`${SERVER}/main.ts`, `${SERVER}/assembly.ts`];

/** Where a specifier lands, relative to the repository root (forward slashes), or null for npm packages. */
function target(fromFile, spec) {
  if (spec.startsWith('.')) return rel(path.resolve(path.dirname(fromFile), spec));
  for (const [name, dir] of Object.entries(PACKAGES)) {
    if (spec === name || spec.startsWith(`${name}/`)) return `${dir}/${spec.slice(name.length + 1)}`;
  }
  return null;
}

const rel = (file) => path.relative(root, file).split(path.sep).join('/');
const inside = (file, dir) => file === dir || file.startsWith(`${dir}/`);
const moduleOf = (file) => (file.startsWith(MODULES) ? file.slice(MODULES.length).split('/')[0] : undefined);

/** Why importing `to` from `from` points the wrong way, or null when it is allowed. */
export function layerViolation(from, to) {
  if (inside(from, 'packages/shared') && !inside(to, 'packages/shared'))
    return 'packages/shared imports nothing of ours (it is the bottom layer).';
  if (inside(from, 'packages/server') && inside(to, 'packages/web'))
    return 'the server never imports the web app.';
  if (inside(from, 'packages/web') && inside(to, 'packages/server'))
    return 'the web app never imports the server.';
  if (inside(from, 'packages/server/src/platform') && inside(to, 'packages/server/src/modules'))
    return 'platform/ never imports a module: declare an interface in platform and let the module implement it.';
  if (inside(from, `${SERVER}/db`) && inside(to, SERVER) && !inside(to, `${SERVER}/db`))
    return 'db/ is the ground floor: it imports nothing from the layers above it (see assembly.ts).';
  const own = moduleOf(from);
  const other = moduleOf(to);
  if (own && other && own !== other && to !== `${MODULES}${other}/index.ts`)
    return `a module imports another only through its face: use modules/${other}/index.ts.`;
  if (inside(from, `${SERVER}/gateways`) && other && to !== `${MODULES}${other}/index.ts`)
    return `a gateway reaches a module only through its face: use modules/${other}/index.ts.`;
  if (
    inside(to, `${SERVER}/demo`) &&
    inside(from, SERVER) &&
    !inside(from, `${SERVER}/demo`) &&
    !DEMO_LOADERS.includes(from)
  )
    return 'production code never imports the demo place (main.ts loads it to start the demo).';
  return null;
}

/** Why a bare specifier may not be imported here (the simulators), or null. */
export function packageViolation(from, spec) {
  if (!SIMULATORS.some((name) => spec === name || spec.startsWith(`${name}/`))) return null;
  if (inside(from, SERVER) && !inside(from, `${SERVER}/demo`))
    return "the device simulators are the demo's: only packages/server/src/demo starts them.";
  return null;
}

/** Kysely's query entry points: a gateway calling one queries a module's tables behind its back. */
const QUERY_BUILDERS = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'replaceInto',
  'mergeInto',
]);

export const layersRule = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Imports point one way: shared ← server/web, platform ← modules, modules through faces.',
    },
    schema: [],
    messages: {
      upward: 'Upward import of "{{spec}}": {{reason}}',
      query:
        'A gateway queries "{{table}}" itself: module tables are reached only through the module\'s services (its face).',
    },
  },
  create(context) {
    const from = rel(path.resolve(context.filename));
    const check = (source) => {
      if (!source || typeof source.value !== 'string') return;
      const to = target(context.filename, source.value);
      const reason = to ? layerViolation(from, to) : packageViolation(from, source.value);
      if (reason) context.report({ node: source, messageId: 'upward', data: { spec: source.value, reason } });
    };
    const inGateway = inside(from, `${SERVER}/gateways`);
    return {
      // db.kysely.selectFrom('ChargeHost'), trx.updateTable(...), or a raw sql`…` template, in a gateway.
      CallExpression(node) {
        if (!inGateway || node.callee.type !== 'MemberExpression' || node.callee.computed) return;
        if (!QUERY_BUILDERS.has(node.callee.property.name)) return;
        const arg = node.arguments[0];
        const table = arg && arg.type === 'Literal' ? String(arg.value) : '(a table)';
        context.report({ node, messageId: 'query', data: { table } });
      },
      TaggedTemplateExpression(node) {
        if (inGateway && node.tag.type === 'Identifier' && node.tag.name === 'sql')
          context.report({ node, messageId: 'query', data: { table: 'sql`…`' } });
      },
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export const layersPlugin = { rules: { layers: layersRule } };
