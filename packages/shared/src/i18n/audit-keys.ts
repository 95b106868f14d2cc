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
