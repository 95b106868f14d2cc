import { z } from 'zod';

/**
 * The most characters a body field of the contract takes (its `z.string().max(n)`), read from the schema so
 * that a form's counter and limit are the server's (issue 27) instead of a number restated by hand.
 * Looks through optional, nullable, default and pipes (a trimmed or refined text); undefined when the field
 * is not text or has no maximum.
 */
export function textMaxLength(body: unknown, field: string): number | undefined {
  let schema: unknown =
    body instanceof z.ZodObject ? (body.shape as Record<string, unknown>)[field] : undefined;
  while (schema) {
    if (schema instanceof z.ZodString) return schema.maxLength ?? undefined;
    if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
      schema = schema.unwrap();
    else if (schema instanceof z.ZodPipe) schema = schema.in;
    else return undefined;
  }
  return undefined;
}
