import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * gatehouse/layers: imports point one way (docs/architecture.md, "Layers").
 *
 * - packages/shared imports nothing of ours: no @gatehouse/server or web, no relative path out of shared;
 * - packages/server and packages/web never import each other;
 * - packages/server/src/platform never imports packages/server/src/modules;
 * - a server module imports another module only through its face, modules/<other>/index.ts.
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
const MODULES = 'packages/server/src/modules/';

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
  const own = moduleOf(from);
  const other = moduleOf(to);
  if (own && other && own !== other && to !== `${MODULES}${other}/index.ts`)
    return `a module imports another only through its face: use modules/${other}/index.ts.`;
  return null;
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: {
      description: 'Imports point one way: shared ← server/web, platform ← modules, modules through faces.',
    },
    schema: [],
    messages: { upward: 'Upward import of "{{spec}}": {{reason}}' },
  },
  create(context) {
    const from = rel(path.resolve(context.filename));
    const check = (source) => {
      if (!source || typeof source.value !== 'string') return;
      const to = target(context.filename, source.value);
      const reason = to && layerViolation(from, to);
      if (reason) context.report({ node: source, messageId: 'upward', data: { spec: source.value, reason } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export const layersPlugin = { rules: { layers: layersRule } };
