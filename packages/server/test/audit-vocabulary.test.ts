import path from 'node:path';
import * as shared from '@gatehouse/shared';
import {
  AUDIT_ENTITY_MODULE,
  LANGUAGES,
  auditFieldKey,
  auditSystemActorKey,
  hasKey,
  translate,
} from '@gatehouse/shared';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

/*
 * Every word the operation log can show comes from its vocabulary (issue 27, item 6): for every `audit()`
 * call the server makes, each object type it can name, and each field its before and after snapshots can
 * hold, is labelled by that object's own words, in all four languages; and every system job that writes the
 * log has a label. The compiler reads the server: the snapshots' types give their fields (spreads included),
 * a name passed in as a parameter is followed to every caller, and a snapshot whose fields the types do not
 * tell fails here, so a new entry cannot slip through with a raw name.
 */

const ROOT = path.join(import.meta.dirname, '..');
const SRC = `${path.join(ROOT, 'src')}${path.sep}`;

interface Found {
  /** entity → fields its snapshots can hold */
  fields: Map<string, Set<string>>;
  /** names of system actors (`systemActor(name)`) */
  systemActors: Set<string>;
  /** what the compiler could not tell, with where */
  unknown: string[];
}

/** Resources the contract declares with writes: the resource helper audits them under their name. */
function writableResources(): { name: string; inputs: string[] }[] {
  const out: { name: string; inputs: string[] }[] = [];
  for (const value of Object.values(shared) as { def?: Record<string, unknown> }[]) {
    const def = value && typeof value === 'object' ? value.def : undefined;
    if (!def || typeof def.name !== 'string') continue;
    if (!def.create && !def.update && !def.remove && !def.status) continue;
    const inputs = [def.create, def.update].flatMap((schema) => {
      const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
      return shape ? Object.keys(shape) : [];
    });
    out.push({ name: def.name, inputs });
  }
  return out;
}

function scan(): Found {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  )!;
  const program = ts.createProgram(
    config.fileNames.filter((f) => f.startsWith(SRC.replaceAll(path.sep, '/')) || f.startsWith(SRC)),
    config.options,
  );
  const checker = program.getTypeChecker();
  const files = program.getSourceFiles().filter((f) => path.resolve(f.fileName).startsWith(SRC));
  const where = (node: ts.Node) => {
    const file = node.getSourceFile();
    return `${path.relative(ROOT, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  };
  const found: Found = { fields: new Map(), systemActors: new Set(), unknown: [] };

  // Every call in the server by the name it calls (no types yet: resolving every call would be slow).
  const calls = new Map<string, ts.CallExpression[]>();
  const calledName = (call: ts.CallExpression) =>
    ts.isIdentifier(call.expression)
      ? call.expression.text
      : ts.isPropertyAccessExpression(call.expression)
        ? call.expression.name.text
        : undefined;
  for (const file of files)
    file.forEachChild(function visit(node): void {
      if (ts.isCallExpression(node)) {
        const name = calledName(node);
        if (name) calls.set(name, [...(calls.get(name) ?? []), node]);
      }
      node.forEachChild(visit);
    });
  const target = (call: ts.CallExpression) => {
    const symbol = checker.getSymbolAtLocation(call.expression);
    return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  };

  /** The arguments given for a parameter, at every call of its function. */
  function argumentsOf(parameter: ts.ParameterDeclaration): ts.Expression[] | undefined {
    const fn = parameter.parent;
    const index = fn.parameters.indexOf(parameter);
    const name =
      ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)
        ? fn.name
        : ts.isVariableDeclaration(fn.parent)
          ? fn.parent.name
          : undefined;
    const symbol = name && checker.getSymbolAtLocation(name);
    const sites =
      symbol && ts.isIdentifier(name) ? calls.get(name.text)?.filter((c) => target(c) === symbol) : [];
    if (!sites?.length) return undefined;
    return sites.map((call) => call.arguments[index]).filter((a): a is ts.Expression => a !== undefined);
  }

  /** The declaration an identifier names (a shorthand `{ after }` names the variable, not the property). */
  const declarationOf = (node: ts.Expression): ts.Declaration | undefined => {
    if (!ts.isIdentifier(node)) return undefined;
    const symbol = ts.isShorthandPropertyAssignment(node.parent)
      ? checker.getShorthandAssignmentValueSymbol(node.parent)
      : checker.getSymbolAtLocation(node);
    return symbol?.valueDeclaration;
  };
  const parameterOf = (node: ts.Expression): ts.ParameterDeclaration | undefined => {
    const declaration = declarationOf(node);
    return declaration && ts.isParameter(declaration) ? declaration : undefined;
  };
  /** The initializer of a `const` an identifier names. */
  const constantOf = (node: ts.Expression): ts.Expression | undefined => {
    const declaration = declarationOf(node);
    return declaration &&
      ts.isVariableDeclaration(declaration) &&
      declaration.parent.flags & ts.NodeFlags.Const
      ? declaration.initializer
      : undefined;
  };
  const literals = (type: ts.Type): string[] | undefined => {
    const members = type.isUnion() ? type.types : [type];
    return members.every((m) => m.isStringLiteral())
      ? members.map((m) => (m as ts.StringLiteralType).value)
      : undefined;
  };

  /** The string values an expression can have (literal types), following parameters to their callers. */
  function valuesOf(node: ts.Expression, depth = 0): string[] | undefined {
    const typed = literals(checker.getTypeAtLocation(node));
    if (typed) return typed;
    if (depth > 4) return undefined;
    const constant = constantOf(node);
    if (constant) return valuesOf(constant, depth + 1);
    if (ts.isTemplateExpression(node)) {
      let out: string[] | undefined = [node.head.text];
      for (const span of node.templateSpans) {
        const values = valuesOf(span.expression, depth + 1);
        if (!values || !out) return undefined;
        out = out.flatMap((prefix) => values.map((v) => `${prefix}${v}${span.literal.text}`));
      }
      return out;
    }
    // `set.linked` of a parameter `set`: the property's literal type in every caller's argument.
    if (ts.isPropertyAccessExpression(node)) {
      const parameter = parameterOf(node.expression);
      const args = parameter && argumentsOf(parameter);
      const values = args?.map((a) => {
        const p = checker.getTypeAtLocation(a).getProperty(node.name.text);
        return p ? literals(checker.getTypeOfSymbol(p)) : undefined;
      });
      return values?.every((v) => v !== undefined) ? (values.flat() as string[]) : undefined;
    }
    const parameter = parameterOf(node);
    if (parameter) {
      const args = argumentsOf(parameter);
      const values = args?.map((a) => valuesOf(a, depth + 1));
      if (values && values.every((v) => v !== undefined)) return values.flat() as string[];
    }
    return undefined;
  }

  const open = (type: ts.Type) =>
    Boolean(type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) ||
    Boolean(checker.getIndexInfoOfType(type, ts.IndexKind.String));

  /** The field names an object expression can hold, following spreads and parameters; undefined if open. */
  function fieldsOf(node: ts.Expression, depth = 0): string[] | undefined {
    while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) node = node.expression;
    if (node.kind === ts.SyntaxKind.NullKeyword) return [];
    if (ts.isObjectLiteralExpression(node)) {
      const names: string[] = [];
      for (const p of node.properties) {
        if (ts.isSpreadAssignment(p)) {
          const spread = fieldsOf(p.expression, depth);
          if (!spread) return undefined;
          names.push(...spread);
        } else if (p.name && ts.isComputedPropertyName(p.name)) {
          const keys = valuesOf(p.name.expression);
          if (!keys) return undefined;
          names.push(...keys);
        } else if (p.name) names.push(p.name.getText());
      }
      return names;
    }
    if (ts.isConditionalExpression(node)) {
      const [a, b] = [fieldsOf(node.whenTrue, depth), fieldsOf(node.whenFalse, depth)];
      return a && b ? [...a, ...b] : undefined;
    }
    const type = checker.getTypeAtLocation(node);
    const members = (type.isUnion() ? type.types : [type]).filter(
      (m) => !(m.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)),
    );
    if (members.every((m) => !open(m)))
      return members.flatMap((m) => checker.getPropertiesOfType(m).map((p) => p.name));
    const parameter = parameterOf(node);
    if (parameter && depth < 4) {
      const args = argumentsOf(parameter);
      const fields = args?.map((a) => fieldsOf(a, depth + 1));
      if (fields && fields.every((f) => f !== undefined)) return fields.flat() as string[];
    }
    return undefined;
  }

  const property = (entry: ts.ObjectLiteralExpression, name: string) => {
    for (const p of entry.properties) {
      if (ts.isPropertyAssignment(p) && p.name.getText() === name) return p.initializer;
      if (ts.isShorthandPropertyAssignment(p) && p.name.text === name) return p.name;
    }
    return undefined;
  };

  const resources = writableResources();
  const add = (entity: string, fields: Iterable<string>) => {
    const set = found.fields.get(entity) ?? new Set<string>();
    for (const f of fields) set.add(f);
    found.fields.set(entity, set);
  };
  // The columns of a table: what the resource helper's snapshots (the row before, the row written) hold.
  const database = files
    .flatMap((f) => f.statements)
    .find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'Database');
  const tables = database ? checker.getTypeAtLocation(database) : undefined;
  const columnsOf = (table: string) => {
    const symbol = tables?.getProperty(table);
    if (!symbol) return undefined;
    return checker.getPropertiesOfType(checker.getTypeOfSymbol(symbol)).map((p) => p.name);
  };

  const visitCall = (node: ts.CallExpression): void => {
    const callee = target(node);
    const declared = callee?.valueDeclaration?.getSourceFile().fileName ?? '';
    if (callee?.name === 'systemActor' && declared.endsWith('platform/context.ts')) {
      const names = valuesOf(node.arguments[0]!);
      if (names) names.forEach((n) => found.systemActors.add(n));
      else found.unknown.push(`${where(node)}: which system actor`);
    }
    if (callee?.name !== 'audit' || !declared.endsWith('platform/audit.ts')) return;
    const entry = node.arguments[1];
    if (!entry || !ts.isObjectLiteralExpression(entry)) {
      found.unknown.push(`${where(node)}: an entry that is not an object literal`);
      return;
    }
    const entityNode = property(entry, 'entity')!;
    const snapshots = ['before', 'after'].map((p) => property(entry, p));
    if (entityNode.getText() === 'def.name') {
      // The resource helper: the row's columns and the contract's inputs, for every writable resource.
      for (const { name, inputs } of resources) {
        const columns = columnsOf(TABLE_OF[name] ?? name);
        if (!columns) found.unknown.push(`${where(node)}: no table named ${name} for its columns`);
        add(name, [...(columns ?? []), ...inputs]);
      }
      return;
    }
    const entities = valuesOf(entityNode);
    if (!entities) {
      found.unknown.push(`${where(node)}: which entity`);
      return;
    }
    const fields = snapshots.flatMap((s) => {
      if (!s) return [];
      const names = fieldsOf(s);
      if (!names) found.unknown.push(`${where(s)}: which fields "${s.getText().slice(0, 60)}" holds`);
      return names ?? [];
    });
    for (const entity of entities) add(entity, fields);
  };
  for (const call of [...(calls.get('systemActor') ?? []), ...(calls.get('audit') ?? [])]) visitCall(call);
  return found;
}

/** Resources kept in a table of another name (the pools of devices and cards). */
const TABLE_OF: Record<string, string> = {
  DeviceRegistration: 'AccessControlDevice',
  CardRegistration: 'Card',
};

/** Fields the log never shows: secrets are left out of snapshots, UpdatedAt out of the changed fields. */
const NEVER_SHOWN = new Set([
  'PasswordHash',
  'Password',
  'NewPassword',
  'OldPassword',
  'TokenHash',
  'OcppPasswordHash',
  'UpdatedAt',
]);

describe('operation log vocabulary', () => {
  let found: Found;
  beforeAll(() => {
    found = scan();
  }, 300_000);

  it('reads every audit() call of the server (the walk itself works)', () => {
    expect(found.unknown).toEqual([]);
    expect(found.fields.get('DoorAlarm')).toEqual(expect.any(Set));
    for (const f of ['Kind', 'State', 'Note', 'DeviceName'])
      expect(found.fields.get('DoorAlarm')).toContain(f);
    // Spreads and parameters are followed: the rule parts a controller pass wrote, a socket command's card.
    expect(found.fields.get('AccessControlDevice')).toContain('Keypads');
    expect(found.fields.get('ChargeEquipment')).toContain('CardNumber');
    expect(found.fields.get('CardUserLinkChannel')).toContain('TimeProfileId');
    expect([...found.systemActors]).toEqual(
      expect.arrayContaining(['charger reconciliation', 'ocpp liveness']),
    );
    expect(found.fields.size).toBeGreaterThan(30);
  });

  it('has a module for every audited object, whose words alone name its fields', () => {
    expect([...found.fields.keys()].filter((e) => !AUDIT_ENTITY_MODULE[e])).toEqual([]);
    // A door alarm's State is the alarm's handling state, never the garage's socket state.
    const foreign: string[] = [];
    for (const [entity, fields] of found.fields)
      for (const field of fields) {
        const namespace = auditFieldKey(entity, field)?.split('.')[0];
        if (namespace && namespace !== 'audit' && namespace !== AUDIT_ENTITY_MODULE[entity])
          foreign.push(`${entity}.${field}: ${namespace}`);
      }
    expect(foreign.sort()).toEqual([]);
  });

  it.each(LANGUAGES)('labels every field of every audited object in %s, by that object', (lang) => {
    const missing: string[] = [];
    for (const [entity, fields] of found.fields)
      for (const field of fields) {
        if (NEVER_SHOWN.has(field)) continue;
        const key = auditFieldKey(entity, field);
        if (!key || !hasKey(lang, key) || translate('zh', key) === field) missing.push(`${entity}.${field}`);
      }
    expect(missing.sort()).toEqual([]);
  });

  it.each(LANGUAGES)('labels every system job that writes the log in %s', (lang) => {
    const missing = [...found.systemActors].filter((name) => !hasKey(lang, auditSystemActorKey(name)));
    expect(missing).toEqual([]);
    for (const device of ['accessControl', 'garage'])
      expect(hasKey(lang, `audit.actor.device.${device}`), `${lang} ${device} device`).toBe(true);
  });
});
