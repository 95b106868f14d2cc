/**
 * Catalogue keys of the operation log's words. Actions may hold dots (`payment.Refund`,
 * `forcedPowerOff.result`) while catalogue keys are dot paths, so the dots become underscores.
 */
export function auditActionKey(action: string): string {
  return `audit.action.${action.replaceAll('.', '_')}`;
}

export function auditEntityKey(entity: string): string {
  return `audit.entity.${entity}`;
}

/**
 * Where a changed field's label is looked up, in order: the log's own field words, then the modules'
 * field labels (the same words their screens show).
 */
export function auditFieldKeys(field: string): string[] {
  return ['audit', 'admin', 'accessControl', 'garage'].map((ns) => `${ns}.field.${field}`);
}

/** Snapshot fields that name the object, most telling first (the log keeps names, so it outlives the row). */
const NAME_FIELDS = [
  'Name',
  'UserName',
  'HolderName',
  'DeviceName',
  'ChannelName',
  'HostName',
  'ZoneName',
  'RuleName',
  'Title',
  'Plate',
  'OrderNo',
  'CardNumber',
  'SerialNumber',
] as const;

/** A log entry's before or after snapshot as an object ({} when empty or not JSON). */
export function auditSnapshot(text: string | null): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? 'null');
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * The object's name as its log entry recorded it (after the change, else before), or null: what the
 * operation log shows, and the server looks up a current name only for entries without one.
 */
export function recordedObjectName(entry: { Before: string | null; After: string | null }): string | null {
  for (const snapshot of [auditSnapshot(entry.After), auditSnapshot(entry.Before)])
    for (const field of NAME_FIELDS) {
      const value = snapshot[field];
      if (typeof value === 'string' && value) return value;
      if (typeof value === 'number') return String(value);
    }
  return null;
}
