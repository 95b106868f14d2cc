import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants.ts';
import { isEnumValue, type EnumDef } from '../enums/define.ts';

/**
 * The wire's primitives, one set for every operation of the contract (operation.ts): the server parses
 * requests with them, the web types its calls from them, the OpenAPI document describes them.
 *
 * Two families, because the wire has two kinds of input: a JSON body carries typed values (an id is a JSON
 * integer, never the text "123"), a query string or a path carries text (an id arrives as digits).
 */

/**
 * Query strings carry text, so a whole number may arrive as canonical decimal digits ("16", not "0x10",
 * "1e3", " 1" or "01"). Anything else (true, [5], null, "") is left as it is for the number schema to
 * refuse: z.coerce would have read those as 16, 1000, 1 and 0.
 */
const digits = (value: unknown) =>
  typeof value === 'string' && /^(0|[1-9]\d{0,15})$/.test(value) ? Number(value) : value;

/** A whole number in a query string or a path (digits, or a number when a caller builds the query). */
export function wholeNumber<T extends z.ZodNumber>(schema: T): z.ZodType<number, number | string> {
  const strict = z.preprocess(digits, schema);
  // zod takes a preprocessed schema's optionality from its transform, which accepts anything, so the
  // OpenAPI document called every such field optional (and dropped its default) although parsing requires
  // it. It is as required as its target: say so.
  Object.defineProperty(strict._zod, 'optin', { value: schema._zod.optin, configurable: true });
  return strict as unknown as z.ZodType<number, number | string>;
}

const ID_MAX = 2_147_483_647;

/** An id in a JSON body: a JSON integer (text such as "123" is refused). */
export const id = z.number().int().min(1).max(ID_MAX);

/** An id in a query string or a path. */
export const idText = wholeNumber(z.number().int().min(1).max(ID_MAX));

/** `{ Id }` of a path such as /api/Role/:Id. */
export const idParams = z.strictObject({ Id: idText });

/** A list of ids in a body (batch operations). */
export const idList = (max = 500) => z.array(id).min(1).max(max);

/**
 * The window of every instant the API takes: far enough for any real validity or pass, and refusing
 * instants a Date cannot hold (RangeError) or that overflow a pass's end past the JS date range.
 */
export const INSTANT_MIN = Date.UTC(2000, 0, 1);
export const INSTANT_MAX = Date.UTC(2100, 0, 1) - 1;

/** ISO 8601 with a zone (Z or ±hh:mm); zod checks the calendar, so 2026-02-30 is refused. */
const isoWithZone = z.iso.datetime({ offset: true, local: false });

/**
 * An instant → epoch ms in [INSTANT_MIN, INSTANT_MAX]: ISO 8601 with a zone, or epoch milliseconds (a
 * JSON integer, or digits in a query string). Zone-less text and local forms (11/01/2026) are refused:
 * which zone they meant would be a guess.
 */
function toInstant(value: string | number, ctx: z.RefinementCtx): number {
  let ms = Number.NaN;
  if (typeof value === 'number') ms = value;
  else if (/^\d{1,15}$/.test(value)) ms = Number(value);
  else if (isoWithZone.safeParse(value).success) ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: 'custom', message: 'validation.invalid' });
    return z.NEVER;
  }
  if (ms < INSTANT_MIN || ms > INSTANT_MAX) {
    ctx.addIssue({ code: 'custom', message: 'validation.instantRange' });
    return z.NEVER;
  }
  return ms;
}

/** An instant in a query string (text). */
export const instantText = z.string().trim().min(1).transform(toInstant);

/** An instant in a body: ISO 8601 text with a zone (what the web sends) or epoch milliseconds. */
export const bodyInstant = z
  .union([
    // The window is checked by toInstant (one message for both forms); the document states it.
    z.number().int().meta({ minimum: INSTANT_MIN, maximum: INSTANT_MAX }),
    isoWithZone,
  ])
  .transform(toInstant);

/**
 * A flag in a query string: true/false or 1/0. Typed to take a boolean as well, which a client turns into
 * its text when it builds the query string.
 */
export const queryBool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1') as unknown as z.ZodType<
  boolean,
  boolean | 'true' | 'false' | '1' | '0'
>;

/** Optional text of a body: trimmed, at most `max` characters, null (or absent) for none. */
export const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

/**
 * A refinement for any pair of instants: when both are given, the end is not before the start
 * (`validation.endBeforeStart`, reported on the end field).
 */
export function endAfterStart<S extends string, E extends string>(start: S, end: E) {
  return (value: { [K in S | E]?: number | null | undefined }, ctx: z.RefinementCtx): void => {
    const from = value[start];
    const to = value[end];
    if (from != null && to != null && to < from)
      ctx.addIssue({ code: 'custom', path: [end], message: 'validation.endBeforeStart' });
  };
}

/** PageIndex and PageSize of every paged list. */
export const paging = {
  PageIndex: wholeNumber(z.number().int().min(1).max(1_000_000)).default(1),
  PageSize: wholeNumber(z.number().int().min(1).max(PAGE_SIZE_MAX)).default(PAGE_SIZE_DEFAULT),
};

/**
 * Above this many matching rows a list does not count them all (docs/performance.md, "Count rules"): its
 * page says `TotalCapped` and `Total` is this number, read "more than 10,000"; pages go on past it.
 */
export const LIST_TOTAL_CAP = 10_000;

/**
 * A page of a list: its items and the number of items the filters match; with `TotalCapped`, more than
 * `Total` (= LIST_TOTAL_CAP) match and the exact number was not counted. `RetainedFrom` (an ISO instant, record
 * lists only): the records of this kind from before it are removed by its retention setting (docs/performance.md,
 * "Growth bounded: retention"), and the list's time range starts before it or has no start, so `Total` counts
 * the records kept, not every record the range once held. Absent when the setting is 0 (keep everything) or
 * the range starts at or after it.
 */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    Items: z.array(item),
    Total: z.number().int(),
    TotalCapped: z.boolean().optional(),
    RetainedFrom: z.string().optional(),
  });
}

export interface Page<T> {
  Items: T[];
  Total: number;
  /** More than `Total` rows match (the count stopped at LIST_TOTAL_CAP). */
  TotalCapped?: boolean;
  /** Records from before this instant are removed by retention, and the range reaches before it. */
  RetainedFrom?: string;
}

const enumCheck = (def: EnumDef<string, number>) =>
  z
    .number()
    .int()
    .refine((v) => isEnumValue(def, v), { message: 'validation.invalidOption' });

/** A numeric enumeration value in a JSON body (a JSON integer of the shared definition). */
export function enumNumber(def: EnumDef<string, number>) {
  return enumCheck(def);
}

/** An integer's text with its sign: some enumerations have negative values (issue status -1, -2). */
const signedDigits = (value: unknown) =>
  typeof value === 'string' && /^(0|-?[1-9]\d{0,15})$/.test(value) ? Number(value) : value;

/**
 * A numeric enumeration value in a query string. Signed: the authorisation filter's "pending deletion" (-1) and
 * "deletion succeeded" (-2) were refused as a wrong type by the digits-only parser of ids and page numbers.
 */
export function enumText(def: EnumDef<string, number>) {
  const strict = z.preprocess(signedDigits, enumCheck(def));
  Object.defineProperty(strict._zod, 'optin', { value: enumCheck(def)._zod.optin, configurable: true });
  return strict as unknown as z.ZodType<number, number | string>;
}

/**
 * The schemas of list filters (query parameters); the server pairs each with its condition on a column
 * (platform/filters.ts), the web with its control.
 */
export const filterSchema = {
  /** Substring text (a name, a search box). */
  text: () => z.string().trim().min(1).max(100),
  /** Exact text. */
  equals: (max = 100) => z.string().trim().min(1).max(max),
  /** An id (a foreign key). */
  id: () => idText,
  /** A 0/1 flag. */
  flag: () => queryBool,
  /** A value of a numeric enumeration. */
  oneOf: (def: EnumDef<string, number>) => enumText(def),
  /** An instant bound. */
  instant: () => instantText,
};
