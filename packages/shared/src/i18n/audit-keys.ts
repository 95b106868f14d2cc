import { hasKey } from './translate.ts';

/**
 * The operation log's words, shared by its screen and its export: catalogue keys of actions, object types,
 * fields and actors, and how an entry names its object and its actor. Actions may hold dots
 * (`payment.Refund`, `forcedPowerOff.result`) while catalogue keys are dot paths, so the dots become
 * underscores.
 */
export function auditActionKey(action: string): string {
  return `audit.action.${action.replaceAll('.', '_')}`;
}

export function auditEntityKey(entity: string): string {
  return `audit.entity.${entity}`;
}

export type AuditModule = 'admin' | 'accessControl' | 'garage';

/**
 * The module each audited object belongs to: its fields are named in that module's words (a door alarm's
 * `State` is the alarm's handling state, never the socket state the garage calls `State`), and a device
 * that writes it is that module's device (a door controller, a charging host).
 */
export const AUDIT_ENTITY_MODULE: Readonly<Record<string, AuditModule>> = {
  AppUser: 'admin',
  AreaInfo: 'admin',
  Role: 'admin',
  Resource: 'admin',
  OperatorStaff: 'admin',
  Settings: 'admin',
  AuditLog: 'admin',
  ExportJob: 'admin',
  ApiKey: 'admin',
  Webhook: 'admin',
  WebhookDelivery: 'admin',
  Department: 'admin',
  PeopleGroup: 'admin',
  PeopleType: 'admin',
  DeviceRegistration: 'accessControl',
  CardRegistration: 'accessControl',
  AccessControlDevice: 'accessControl',
  AccessControlChannel: 'accessControl',
  Card: 'accessControl',
  CardUser: 'accessControl',
  CardUserLinkChannel: 'accessControl',
  DoorOpeningRecord: 'accessControl',
  ChangeRecord: 'accessControl',
  RenewalRecord: 'accessControl',
  FailureDeclarationRecord: 'accessControl',
  TimeProfile: 'accessControl',
  Holiday: 'accessControl',
  DoorSchedule: 'accessControl',
  DoorAlarm: 'accessControl',
  VisitorPass: 'accessControl',
  AreaLockdown: 'accessControl',
  Muster: 'accessControl',
  MusterPerson: 'accessControl',
  Occupancy: 'accessControl',
  ParkArea: 'garage',
  ChargeRule: 'garage',
  ChargeHost: 'garage',
  ChargeEquipment: 'garage',
  ChargeRecord: 'garage',
  ChargeOrder: 'garage',
  ParkOrder: 'garage',
  ForcedOutageRecord: 'garage',
  Vehicle: 'garage',
  MonthlyPass: 'garage',
};

/**
 * Fields an object names in words of its own, where its module's label of the same field name is another
 * object's (a door alarm's `Kind` and `Note` are the alarm's kind and acknowledgement note; a device's
 * `Name` is the device name, not a person's).
 */
const OWN_FIELD_KEYS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  DoorAlarm: {
    Kind: 'accessControl.field.AlarmKind',
    State: 'accessControl.field.AlarmState',
    Count: 'accessControl.field.AlarmCount',
    Detail: 'accessControl.field.AlarmDetail',
    Note: 'accessControl.field.AlarmNote',
  },
  AccessControlDevice: {
    Name: 'accessControl.field.DeviceName',
    Keypads: 'accessControl.field.Keypad',
    Profiles: 'accessControl.field.TimeProfile',
  },
  AccessControlChannel: {
    Name: 'accessControl.field.ChannelName',
    Mode: 'audit.field.DoorMode',
    Delay: 'audit.field.DoorDelay',
  },
  Card: { Mode: 'accessControl.field.RegistrationMode' },
  TimeProfile: { Name: 'accessControl.field.ProfileName' },
  Holiday: { Name: 'accessControl.field.HolidayName' },
  FailureDeclarationRecord: {
    HandlerId: 'accessControl.field.Handler',
    HandlerName: 'accessControl.field.Handler',
    ReporterId: 'accessControl.field.Reporter',
    ReporterName: 'accessControl.field.Reporter',
  },
  ParkArea: { Name: 'garage.field.ZoneName' },
  ChargeRule: {
    Name: 'garage.field.RuleName',
    CapCents: 'garage.field.Cap',
    UnitPriceCents: 'garage.field.UnitPrice',
    IdleFeeCentsPerHour: 'garage.field.IdleFee',
    ServiceFeeCents: 'garage.field.ServiceFee',
  },
  ChargeHost: { Name: 'audit.field.HostName' },
  MonthlyPass: { UserName: 'garage.field.Operator' },
  Vehicle: { CardHolderId: 'garage.field.CardHolderName' },
};

/**
 * The catalogue key of a field of an object as the log shows it, or undefined when nothing names it: the
 * object's own word, else its module's field label, else the log's own field words (`audit.field`). Every
 * language holds the same keys (the catalogues' shape), so the Chinese one decides.
 */
export function auditFieldKey(entity: string, field: string): string | undefined {
  const module = AUDIT_ENTITY_MODULE[entity];
  const keys = [
    OWN_FIELD_KEYS[entity]?.[field],
    module ? `${module}.field.${field}` : undefined,
    `audit.field.${field}`,
  ];
  return keys.find((key): key is string => key !== undefined && hasKey('zh', key));
}

/** Fields an entry shows with their value (the note an operator wrote, the card a charge started for). */
const SHOWN_VALUES: Readonly<Record<string, readonly string[]>> = {
  DoorAlarm: ['Note'],
  // Why an area was locked down or evacuated, and the note it was released with.
  AreaLockdown: ['Reason', 'ReleaseNote'],
  // Why a roll call was started, and the notes it was marked and ended with.
  Muster: ['Reason', 'Note'],
  ChargeEquipment: ['CardNumber'],
  // The note an operator cleared a heat alarm with.
  ChargeHost: ['Note'],
  // Why a zone was put under emergency stop, and the note it was released with.
  ParkArea: ['Reason', 'Note'],
};

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
 * Fields that identify an object and never change (its id; an alarm's controller and door): the object column
 * shows them, so they are no "changed field" even when an entry records them on one side only (a creation).
 */
const IDENTITY: Readonly<Record<string, readonly string[]>> = {
  DoorAlarm: ['DeviceId', 'DeviceName', 'DoorNumber', 'DoorName', 'AreaId'],
};

/**
 * The names of the fields whose values differ between before and after: what the change was. A field absent
 * on one side and empty (null) on the other did not change: a raised alarm's acknowledgement is not part of
 * raising it.
 */
export function auditChangedFields(before: string | null, after: string | null, entity = ''): string[] {
  const a = auditSnapshot(before);
  const b = auditSnapshot(after);
  const fixed = new Set(['Id', 'UpdatedAt', ...(IDENTITY[entity] ?? [])]);
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter(
    (k) => !fixed.has(k) && JSON.stringify(a[k] ?? null) !== JSON.stringify(b[k] ?? null),
  );
}

export type AuditTr = (key: string, params?: Record<string, string | number>) => string;

type Snapshot = Record<string, unknown>;
const text = (value: unknown): string | null =>
  typeof value === 'string' && value ? value : typeof value === 'number' ? String(value) : null;

/**
 * Objects named by more than one field: a door alarm by its controller and door, a socket by its host and
 * number (never by the card a charge was started for). Null when the snapshot does not hold them.
 */
const COMPOSED_NAMES: Readonly<Record<string, (s: Snapshot, tr: AuditTr) => string | null>> = {
  DoorAlarm: (s, tr) => {
    const device = text(s.DeviceName);
    if (!device) return null;
    const door =
      text(s.DoorName) ?? (Number(s.DoorNumber) > 0 ? tr(`enums.doorNumber.${Number(s.DoorNumber)}`) : null);
    return door ? tr('audit.name.door', { device, door }) : device;
  },
  ChargeEquipment: (s, tr) => {
    const host = text(s.HostName);
    const port = text(s.PortNumber);
    return host && port ? tr('audit.name.socket', { host, port }) : null;
  },
};

/**
 * The object's name as its log entry recorded it (after the change, else before), or null: what the
 * operation log shows, and the server looks up a current name only for entries without one.
 */
export function recordedObjectName(
  entry: { Entity: string; Before: string | null; After: string | null },
  tr: AuditTr,
): string | null {
  const snapshots = [auditSnapshot(entry.After), auditSnapshot(entry.Before)];
  const composed = COMPOSED_NAMES[entry.Entity];
  if (composed) {
    for (const snapshot of snapshots) {
      const name = composed(snapshot, tr);
      if (name) return name;
    }
    return null;
  }
  for (const snapshot of snapshots)
    for (const field of NAME_FIELDS) {
      const value = text(snapshot[field]);
      if (value) return value;
    }
  return null;
}

/** Turns a system job's name as written (`charger reconciliation`, `wg-gateway`) into its catalogue key. */
export function auditSystemActorKey(name: string): string {
  return `audit.actor.system.${name.replace(/[-\s]+(\w)/g, (_, c: string) => c.toUpperCase())}`;
}

export interface AuditActorEntry {
  ActorKind: 'user' | 'device' | 'system' | 'key';
  UserName: string | null;
  Ip: string | null;
  Entity: string;
}

/**
 * Who acted, in the operator's language: a user by login name; a device as the kind of device it is (a door
 * controller writes access-control objects, a charging host garage ones) and its name; a system job by its
 * label; an API key as a key, by its name. A refused sign-in is logged as the system under the name that was
 * typed, from an address: that name is shown as typed.
 */
export function auditActorName(entry: AuditActorEntry, tr: AuditTr): string {
  const name = entry.UserName ?? '';
  if (entry.ActorKind === 'device') {
    const module = AUDIT_ENTITY_MODULE[entry.Entity] === 'garage' ? 'garage' : 'accessControl';
    return tr(`audit.actor.device.${module}`, { name });
  }
  if (entry.ActorKind === 'key') return tr('audit.actor.key', { name });
  if (entry.ActorKind === 'system' && entry.Ip === null) {
    const key = auditSystemActorKey(name);
    return hasKey('zh', key) ? tr(key) : name;
  }
  return name;
}

export interface AuditWordsEntry extends AuditActorEntry {
  Action: string;
  EntityId: string | null;
  EntityName: string | null;
  Before: string | null;
  After: string | null;
}

/**
 * One log entry in the operator's words, as its screen and its export show it: who, the action, the object
 * (type and name, else its id) and the fields that changed (each label once; a note or a card with its
 * value). A word without a label shows its raw key, which the server's vocabulary test prevents.
 */
export function auditWords(entry: AuditWordsEntry, tr: AuditTr) {
  const name = recordedObjectName(entry, tr) ?? entry.EntityName;
  const shown = SHOWN_VALUES[entry.Entity] ?? [];
  const after = auditSnapshot(entry.After);
  const fields = auditChangedFields(entry.Before, entry.After, entry.Entity).map((f) => {
    const key = auditFieldKey(entry.Entity, f);
    const label = key ? tr(key) : f;
    const value = text(after[f]);
    return shown.includes(f) && value ? tr('audit.fieldValue', { field: label, value }) : label;
  });
  const word = (key: string, raw: string) => (hasKey('zh', key) ? tr(key) : raw);
  const entity = word(auditEntityKey(entry.Entity), entry.Entity);
  return {
    actor: auditActorName(entry, tr),
    action: word(auditActionKey(entry.Action), entry.Action),
    entity,
    object: [entity, name ?? (entry.EntityId ? `#${entry.EntityId}` : null)].filter(Boolean).join(' '),
    fields: [...new Set(fields)],
  };
}
