/**
 * Lookup enumerations as typed data. Each item carries its stored value and the catalogue key of its
 * label (`enum.<name>.<value>`), so server exports and web screens translate the same words.
 */

export type EnumValue = number | boolean;

export interface EnumItemInput {
  readonly value: EnumValue;
  /** Display colour, `#rrggbb`. */
  readonly color?: string;
  /** Catalogue key of the unit the value is measured in (`unit.hour`). */
  readonly unit?: string;
}

export interface EnumItem<N extends string = string, V extends EnumValue = EnumValue> {
  readonly value: V;
  readonly key: `enum.${N}.${V}`;
  readonly color?: string;
  readonly unit?: string;
}

export interface EnumDef<N extends string = string, V extends EnumValue = EnumValue> {
  readonly name: N;
  readonly items: readonly EnumItem<N, V>[];
}

/** The value type of an enumeration: `EnumValueOf<typeof issueStatus>` is `-2 | -1 | 0 | 1 | 2 | 3`. */
export type EnumValueOf<E> = E extends EnumDef<string, infer V> ? V : never;

export function defineEnum<const N extends string, const I extends readonly EnumItemInput[]>(
  name: N,
  items: I,
): EnumDef<N, I[number]['value']> {
  if (items.length === 0) throw new Error(`enum ${name} has no items`);
  const seen = new Set<EnumValue>();
  const defined = items.map((item) => {
    if (seen.has(item.value)) throw new Error(`enum ${name} repeats the value ${String(item.value)}`);
    seen.add(item.value);
    return Object.freeze({ ...item, key: `enum.${name}.${String(item.value)}` as const });
  });
  return Object.freeze({ name, items: Object.freeze(defined) }) as EnumDef<N, I[number]['value']>;
}

/** Strict: `1` is a value of an enumeration of numbers, the text `'1'` is not (parse query strings first). */
export function isEnumValue<V extends EnumValue>(def: EnumDef<string, V>, value: unknown): value is V {
  return def.items.some((item) => item.value === value);
}

export function findEnumItem<N extends string, V extends EnumValue>(
  def: EnumDef<N, V>,
  value: unknown,
): EnumItem<N, V> | undefined {
  return def.items.find((item) => item.value === value);
}

/**
 * The values as a non-empty tuple, in declaration order, for schemas:
 * `z.literal(enumValues(issueStatus))` accepts exactly the enumeration's values.
 */
export function enumValues<V extends EnumValue>(def: EnumDef<string, V>): readonly [V, ...V[]] {
  return def.items.map((item) => item.value) as unknown as readonly [V, ...V[]];
}
