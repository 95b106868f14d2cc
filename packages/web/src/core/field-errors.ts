import { RequestError } from './request.ts';

export interface FieldProblem {
  name: string;
  errors: string[];
}

/**
 * Splits a failed request's per-field messages (`data.Errors`) into those a form shows under its own fields
 * and a remainder to show as a toast (another field, or no field list at all). Fields are the form's names,
 * which are the API's; the operator reads only the messages, never the field names.
 */
export function serverFieldErrors(
  error: unknown,
  formFields: readonly string[],
): { fields: FieldProblem[]; rest: string | null } {
  // Not a request failure, or a network one (code 0): the client has already said "Request error".
  if (!(error instanceof RequestError) || error.code === 0) return { fields: [], rest: null };
  const errors = (error.data as { Errors?: { Field: string; Message: string }[] } | null)?.Errors ?? [];
  const known = new Set(formFields);
  const fields = errors
    .filter((e) => known.has(e.Field))
    .map((e) => ({ name: e.Field, errors: [e.Message] }));
  const others = errors.filter((e) => !known.has(e.Field)).map((e) => e.Message);
  const rest = others.length ? others.join('; ') : fields.length ? null : error.message;
  return { fields, rest };
}
