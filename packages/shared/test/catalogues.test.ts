import { describe, expect, it } from 'vitest';
import { ENUMS, LANGUAGES, catalogues, hasKey, translate } from '../src/index.ts';

type Tree = { readonly [key: string]: string | Tree };

/** Every leaf of a catalogue as [dotted key, text]. */
function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, node]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof node === 'string' ? [[path, node] as [string, string]] : leaves(node, path);
  });
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();
}

const zhLeaves = leaves(catalogues.zh as Tree);

describe('catalogues', () => {
  it('the Chinese catalogue has the namespaces the modules rely on', () => {
    expect(Object.keys(catalogues.zh)).toEqual(
      expect.arrayContaining(['enum', 'error', 'time', 'unit', 'validation']),
    );
  });

  describe.each(LANGUAGES.map((lang) => [lang]))('%s', (lang) => {
    const own = new Map(leaves(catalogues[lang] as Tree));

    it('has a non-empty text for every key of the Chinese catalogue', () => {
      const missing = zhLeaves.filter(([key]) => !(own.get(key) ?? '').trim()).map(([key]) => key);
      expect(missing).toEqual([]);
    });

    it('has no key the Chinese catalogue lacks', () => {
      const zhKeys = new Set(zhLeaves.map(([key]) => key));
      expect([...own.keys()].filter((key) => !zhKeys.has(key))).toEqual([]);
    });

    it('uses the same placeholders as Chinese in every text', () => {
      const mismatched = zhLeaves
        .filter(([key, zh]) => placeholders(zh).join() !== placeholders(own.get(key) ?? '').join())
        .map(([key]) => key);
      expect(mismatched).toEqual([]);
    });

    it('has no broken placeholder braces', () => {
      const broken = [...own].filter(([, text]) => {
        const stripped = text.replace(/\{\{\s*\w+\s*\}\}/g, '');
        return stripped.includes('{{') || stripped.includes('}}');
      });
      expect(broken).toEqual([]);
    });

    it('labels every value of every enumeration and every unit', () => {
      for (const def of Object.values(ENUMS)) {
        for (const item of def.items) {
          expect(hasKey(lang, item.key), item.key).toBe(true);
          expect(translate(lang, item.key).trim(), item.key).not.toBe('');
          if (item.unit) expect(hasKey(lang, item.unit), item.unit).toBe(true);
        }
      }
    });
  });

  it('English and Spanish texts carry no Chinese left untranslated', () => {
    for (const lang of ['en', 'es'] as const) {
      const han = leaves(catalogues[lang] as Tree).filter(([, text]) => /\p{Script=Han}/u.test(text));
      expect(han, lang).toEqual([]);
    }
  });

  it('has labels only for values that exist', () => {
    for (const [name, labels] of Object.entries(catalogues.zh.enum)) {
      const def = ENUMS[name as keyof typeof ENUMS];
      expect(def, name).toBeDefined();
      expect(Object.keys(labels).sort()).toEqual(def.items.map((i) => String(i.value)).sort());
    }
  });
});
