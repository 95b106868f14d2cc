import { RequestError } from './request.ts';

export interface FieldProblem {
  name: string;
  errors: string[];
}

/**
 * The form field a server field path belongs to: the field itself, the field the form shows it under
 * (`aliases`: an API field the form types as another, such as Passcodes as the text PasscodesText), or for a
 * path into a list or object ("Passcodes.0") the field of its first part.
 */
function formFieldOf(
  path: string,
  known: ReadonlySet<string>,
  aliases: Readonly<Record<string, string>>,
): string | undefined {
  if (known.has(path)) return path;
  const head = path.split('.')[0]!;
  const alias = aliases[path] ?? aliases[head];
  if (alias !== undefined && known.has(alias)) return alias;
  return known.has(head) ? head : undefined;
}

/**
 * Splits a failed request's per-field messages (`data.Errors`) into those a form shows under its own fields
 * and a remainder to show as a toast (another field, or no field list at all). Fields are the form's names,
 * which are the API's (or mapped from them by `aliases`); the operator reads only the messages, never the
 * field names or paths. A field named twice ("Passcodes.0", "Passcodes.2") shows each message once.
 */
export function serverFieldErrors(
  error: unknown,
  formFields: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): { fields: FieldProblem[]; rest: string | null } {
  // Not a request failure, or a network one (code 0): the client has already said "Request error".
  if (!(error instanceof RequestError) || error.code === 0) return { fields: [], rest: null };
  const errors = (error.data as { Errors?: { Field: string; Message: string }[] } | null)?.Errors ?? [];
  const known = new Set(formFields);
  const byField = new Map<string, string[]>();
  const others: string[] = [];
  for (const e of errors) {
    const name = formFieldOf(e.Field, known, aliases);
    if (name === undefined) {
      if (!others.includes(e.Message)) others.push(e.Message);
      continue;
    }
    const messages = byField.get(name) ?? [];
    if (!messages.includes(e.Message)) messages.push(e.Message);
    byField.set(name, messages);
  }
  const fields = [...byField].map(([name, messages]) => ({ name, errors: messages }));
  const rest = others.length ? others.join('; ') : fields.length ? null : error.message;
  return { fields, rest };
}
