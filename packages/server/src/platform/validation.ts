import { translate, type Lang } from '@gatehouse/shared';
import type { z } from 'zod';

export interface FieldError {
  Field: string;
  Message: string;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let node = input;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[part];
  }
  return node;
}

/** Shared validators put a catalogue key in the issue message; zod's own issues map onto generic keys. */
function issueMessage(issue: z.core.$ZodIssue, input: unknown, lang: Lang): string {
  if (issue.message.startsWith('validation.') || issue.message.startsWith('error.')) {
    return translate(lang, issue.message, (issue as { params?: Record<string, string | number> }).params);
  }
  switch (issue.code) {
    case 'invalid_type': {
      const value = valueAt(input, issue.path);
      return value === undefined || value === null || value === ''
        ? translate(lang, 'validation.required')
        : translate(lang, issue.expected === 'int' ? 'validation.notInteger' : 'validation.invalidType');
    }
    case 'too_small':
      return issue.origin === 'string'
        ? Number(issue.minimum) <= 1
          ? translate(lang, 'validation.required')
          : translate(lang, 'validation.tooShort', { min: Number(issue.minimum) })
        : translate(lang, 'validation.tooSmall', { min: Number(issue.minimum) });
    case 'too_big':
      return issue.origin === 'string'
        ? translate(lang, 'validation.tooLong', { max: Number(issue.maximum) })
        : translate(lang, 'validation.tooBig', { max: Number(issue.maximum) });
    case 'invalid_value':
      return translate(lang, 'validation.invalidOption');
    case 'unrecognized_keys':
      return translate(lang, 'validation.unknownField');
    default:
      return translate(lang, 'validation.invalid');
  }
}

/**
 * At most this many field errors in one reply: enough for any real form, and a body with thousands of
 * unknown keys cannot turn a small request into a large error (unauthenticated amplification).
 */
export const MAX_FIELD_ERRORS = 20;
/** A field name in an error is cut to this length (an unknown key can be as long as the body allows). */
const MAX_FIELD_LENGTH = 64;

/** Every failing field with a message in the caller's language; unknown keys are listed one by one. */
export function fieldErrors(error: z.ZodError, input: unknown, lang: Lang, prefix = ''): FieldError[] {
  const out: FieldError[] = [];
  const push = (field: string, message: string) => {
    if (out.length < MAX_FIELD_ERRORS)
      out.push({ Field: field.slice(0, MAX_FIELD_LENGTH), Message: message });
  };
  for (const issue of error.issues) {
    if (out.length >= MAX_FIELD_ERRORS) break;
    const base = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      const message = issueMessage(issue, input, lang);
      for (const key of issue.keys.slice(0, MAX_FIELD_ERRORS)) push(base ? `${base}.${key}` : key, message);
    } else {
      push(base, issueMessage(issue, input, lang));
    }
  }
  return out;
}
