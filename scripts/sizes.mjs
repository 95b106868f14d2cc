// `node scripts/sizes.mjs [--list]`: the functions longer than 80 lines and the source files longer than 600
// lines in packages/*/src, tests left out (issue 18). A function is any function declaration, method,
// arrow function or function expression, counted from its first line to its last; a function inside a
// longer one counts on its own too. Files of data (i18n catalogues, the contract declarations, enums, the
// demo place, catalogues, fixtures, generated files) are listed apart from the 600-line rule.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// scripts/measures.mjs uses `measureSizes()`.
const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const FUNCTION_LINES = 80;
export const FILE_LINES = 600;
/** Files of data rather than logic, measured apart from the file-length rule. */
export const DATA = [
  /\/i18n\//,
  /\/contract\//,
  /\/enums\//,
  /\/demo\//,
  /catalog(ue)?s?\.ts$/,
  /fixtures?\.ts$/,
  /\.gen\.ts$/,
];

function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile() && /\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$|\.d\.ts$/.test(entry.name))
      yield full;
  }
}

function nameOf(node, sf) {
  if (node.name) return node.name.getText(sf);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(sf);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(sf);
  if (parent && ts.isCallExpression(parent))
    return `(argument of ${parent.expression.getText(sf).slice(0, 40)})`;
  return '(anonymous)';
}

/**
 * Functions over FUNCTION_LINES lines and files over FILE_LINES lines (code and data apart), each longest
 * first, and the longest code file and data file whatever their length.
 */
export function measureSizes(root = here) {
  const longFunctions = [];
  const longFiles = [];
  const dataFiles = [];
  let largest = { rel: '', lines: 0 };
  let largestData = { rel: '', lines: 0 };
  for (const pkg of fs.readdirSync(path.join(root, 'packages'))) {
    const src = path.join(root, 'packages', pkg, 'src');
    if (!fs.existsSync(src)) continue;
    for (const file of walk(src)) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      const text = fs.readFileSync(file, 'utf8');
      const sf = ts.createSourceFile(
        file,
        text,
        ts.ScriptTarget.Latest,
        true,
        file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
      );
      const fileLines = sf.getLineAndCharacterOfPosition(text.length).line + (text.endsWith('\n') ? 0 : 1);
      const data = DATA.some((re) => re.test('/' + rel));
      if (fileLines > FILE_LINES) (data ? dataFiles : longFiles).push({ rel, lines: fileLines });
      if (data && fileLines > largestData.lines) largestData = { rel, lines: fileLines };
      if (!data && fileLines > largest.lines) largest = { rel, lines: fileLines };
      const visit = (node) => {
        if (
          ts.isFunctionDeclaration(node) ||
          ts.isMethodDeclaration(node) ||
          ts.isArrowFunction(node) ||
          ts.isFunctionExpression(node) ||
          ts.isConstructorDeclaration(node) ||
          ts.isGetAccessor(node) ||
          ts.isSetAccessor(node)
        ) {
          const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
          const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
          if (end - start + 1 > FUNCTION_LINES)
            longFunctions.push({ rel, start, lines: end - start + 1, name: nameOf(node, sf) });
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }
  }

  longFunctions.sort((a, b) => b.lines - a.lines);
  longFiles.sort((a, b) => b.lines - a.lines);
  dataFiles.sort((a, b) => b.lines - a.lines);
  return { longFunctions, longFiles, dataFiles, largest, largestData };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // --root DIR: measure another checkout (an archive of an earlier commit) with this script.
  const rootAt = process.argv.indexOf('--root');
  const root = rootAt >= 0 ? path.resolve(process.argv[rootAt + 1]) : here;
  const list = process.argv.includes('--list');
  const { longFunctions, longFiles, dataFiles } = measureSizes(root);
  if (list) {
    console.log(`Functions over ${FUNCTION_LINES} lines:`);
    for (const f of longFunctions)
      console.log(`  ${String(f.lines).padStart(4)}  ${f.rel}:${f.start}  ${f.name}`);
    console.log(`Files over ${FILE_LINES} lines (code):`);
    for (const f of longFiles) console.log(`  ${String(f.lines).padStart(4)}  ${f.rel}`);
    console.log(`Files over ${FILE_LINES} lines (data):`);
    for (const f of dataFiles) console.log(`  ${String(f.lines).padStart(4)}  ${f.rel}`);
  }
  console.log(
    `functions over ${FUNCTION_LINES} lines: ${longFunctions.length}; files over ${FILE_LINES} lines: ${longFiles.length} (and ${dataFiles.length} of data)`,
  );
}
