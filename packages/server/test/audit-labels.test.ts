import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as shared from '@gatehouse/shared';
import {
  LANGUAGES,
  PAYMENT_ACTION_NAMES,
  auditActionKey,
  auditEntityKey,
  hasKey,
  type PaymentActor,
} from '@gatehouse/shared';
import { describe, expect, it } from 'vitest';

/**
 * Every action and object type the server writes with `audit()` has a label in all four languages, found by
 * scanning the source: a new `audit(ctx, { action: 'x', entity: 'Y' })` without a catalogue entry fails here,
 * so the operation log never shows a raw key.
 */
const SRC = path.join(import.meta.dirname, '../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return name.endsWith('.ts') ? [file] : [];
  });
}

const QUOTED = /'([A-Za-z][\w.]*)'/g;
const PAYMENT_ACTORS: PaymentActor[] = ['operator', 'channel', 'system'];

/** The argument text of one call starting at `open` (the index of its parenthesis), balanced. */
function argumentsAt(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1);
}

/** The value text of `key:` inside an object literal's text (to the next top-level comma), or `key` alone. */
function property(args: string, key: string): string | undefined {
  const m = new RegExp(`\\b${key}\\s*:\\s*([^,\\n]+(?:\\n\\s*[?:][^,\\n]+)*)|\\b${key}\\s*,`).exec(args);
  if (!m) return undefined;
  return m[1] ?? key;
}

/** Literal arguments of every call of `fn` in `text` (for helpers that take the action or entity). */
function literalArguments(text: string, fn: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(new RegExp(`\\b${fn}\\(`, 'g'))) {
    const before = text.slice(Math.max(0, m.index - 20), m.index);
    if (/function\s*$/.test(before)) continue;
    // Object arguments (a command's details) are not the action or entity: leave them out.
    const args = argumentsAt(text, m.index + fn.length).replace(/\{[^{}]*\}/g, '{}');
    for (const q of args.matchAll(QUOTED)) out.push(q[1]!);
  }
  return out;
}

/**
 * Literal arguments of the calls of `fn`: in its own file, or, for a platform helper that takes the action
 * and entity from modules (replaceLinksAudited), in every source file.
 */
function callersArguments(file: string, text: string, fn: string): string[] {
  const own = literalArguments(text, fn);
  if (own.length || !file.includes(`${path.sep}platform${path.sep}`)) return own;
  return sources(SRC).flatMap((other) => literalArguments(readFileSync(other, 'utf8'), fn));
}

function scan() {
  const actions = new Set<string>();
  const entities = new Set<string>();
  const resourceNames = new Set<string>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    if (/defineResource|ResourceDef/.test(text))
      for (const m of text.matchAll(/^\s+name: '([A-Z]\w+)'/gm)) resourceNames.add(m[1]!);
    for (const m of text.matchAll(/\baudit\(/g)) {
      const before = text.slice(Math.max(0, m.index - 20), m.index);
      if (/function\s*$/.test(before)) continue;
      const args = argumentsAt(text, m.index + 'audit'.length);
      // The function the call sits in: its callers pass the action or entity when the entry holds a variable.
      const enclosing = [...text.slice(0, m.index).matchAll(/function (\w+)\s*\(/g)].at(-1)?.[1];
      const action = property(args, 'action');
      const entity = property(args, 'entity');
      expect(action, `${file}: audit() without an action`).toBeDefined();
      expect(entity, `${file}: audit() without an entity`).toBeDefined();
      const literals = (value: string) => [...value.matchAll(QUOTED)].map((q) => q[1]!);
      if (action!.includes('payment.${')) {
        for (const a of PAYMENT_ACTION_NAMES) actions.add(`payment.${a}`);
        for (const a of PAYMENT_ACTORS) actions.add(`payment.${a}`);
      } else if (literals(action!).length) literals(action!).forEach((a) => actions.add(a));
      else {
        const passed = callersArguments(file, text, enclosing!).filter((a) => /^[a-z]/.test(a));
        expect(passed.length, `${file}: actions passed to ${enclosing}()`).toBeGreaterThan(0);
        passed.forEach((a) => actions.add(a));
      }
      if (literals(entity!).length) literals(entity!).forEach((e) => entities.add(e));
      else if (/def\.name|\bkind\b/.test(entity!)) entities.add('*resources*');
      else {
        const passed = callersArguments(file, text, enclosing!).filter((e) => /^[A-Z]/.test(e));
        expect(passed.length, `${file}: entities passed to ${enclosing}()`).toBeGreaterThan(0);
        passed.forEach((e) => entities.add(e));
      }
    }
  }
  // Resources the contract declares (resourceApi): the resource helper audits them under their name.
  for (const value of Object.values(shared) as { def?: { name?: unknown } }[]) {
    const name = value && typeof value === 'object' ? value.def?.name : undefined;
    if (typeof name === 'string') resourceNames.add(name);
  }
  // `def.name` (the resource helper) and order kinds: any declared resource may be the entity.
  if (entities.delete('*resources*')) resourceNames.forEach((n) => entities.add(n));
  return { actions: [...actions].sort(), entities: [...entities].sort() };
}

describe('operation log labels', () => {
  const { actions, entities } = scan();

  it('finds the audited actions and entities (the scan itself works)', () => {
    for (const a of ['login', 'loginFailed', 'lockout', 'logout', 'unlock', 'modifyPassword'])
      expect(actions).toContain(a);
    for (const a of ['modifyPasswordFailed', 'export', 'download', 'payment.Refund', 'forcedPowerOff'])
      expect(actions).toContain(a);
    for (const a of ['remoteStart', 'setCustom', 'resetPassword']) expect(actions).toContain(a);
    for (const e of ['AppUser', 'ExportJob', 'ParkOrder', 'ChargeOrder', 'CardUserLinkChannel', 'Vehicle'])
      expect(entities).toContain(e);
    expect(actions.length).toBeGreaterThan(40);
  });

  it.each(LANGUAGES)('has a %s label for every audited action and entity', (lang) => {
    const missing = [
      ...actions.filter((a) => !hasKey(lang, auditActionKey(a))).map((a) => `action ${a}`),
      ...entities.filter((e) => !hasKey(lang, auditEntityKey(e))).map((e) => `entity ${e}`),
    ];
    expect(missing).toEqual([]);
  });
});
