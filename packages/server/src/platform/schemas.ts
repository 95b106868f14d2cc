import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, isEnumValue, type EnumDef } from '@gatehouse/shared';
import { z } from 'zod';

/**
 * Query strings carry text, so a whole number may arrive as canonical decimal digits ("16", not "0x10",
 * "1e3", " 1" or "01"); bodies must send a JSON integer. Anything else (true, [5], null, "") is left as
 * it is for the number schema to refuse: z.coerce would have read those as 16, 1000, 1 and 0. The
 * document still says integer (zod describes a preprocessed schema by its target).
 */
const digits = (value: unknown) =>
  typeof value === 'string' && /^(0|[1-9]\d{0,15})$/.test(value) ? Number(value) : value;

/** A whole number in a query string or a body, strictly (see `digits`). */
export function wholeNumber<T extends z.ZodNumber>(schema: T) {
  const strict = z.preprocess(digits, schema);
  // zod takes a preprocessed schema's optionality from its transform, which accepts anything, so the
  // OpenAPI document called every such field optional (and dropped its default) although parsing requires
  // it. It is as required as its target: say so.
  Object.defineProperty(strict._zod, 'optin', { value: schema._zod.optin, configurable: true });
  return strict;
}

export const id = wholeNumber(z.number().int().min(1).max(2_147_483_647));

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

/** A flag in a query string: true/false or 1/0. */
export const queryBool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

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

export const paging = {
  PageIndex: wholeNumber(z.number().int().min(1).max(1_000_000)).default(1),
  PageSize: wholeNumber(z.number().int().min(1).max(PAGE_SIZE_MAX)).default(PAGE_SIZE_DEFAULT),
};

export const idParams = z.strictObject({ Id: id });

// A page of a list (TotalCapped, RetainedFrom): the contract's one definition, not a copy that must keep up.
export { pageOf, type Page } from '@gatehouse/shared';

/** A numeric enumeration value of the shared definitions (numbers in bodies, text in query strings). */
export function enumNumber(def: EnumDef<string, number>) {
  return wholeNumber(
    z
      .number()
      .int()
      .refine((v) => isEnumValue(def, v), { message: 'validation.invalidOption' }),
  );
}
