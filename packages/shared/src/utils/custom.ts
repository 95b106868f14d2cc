/**
 * An area's `Custom` text parsed as a JSON object. Anything else (not text, invalid JSON, an array, a
 * number, null) gives null, as the spec asks: a bad value never breaks the screen that reads it.
 */
export function parseCustom(json: unknown): Record<string, unknown> | null {
  if (typeof json !== 'string') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : null;
}
