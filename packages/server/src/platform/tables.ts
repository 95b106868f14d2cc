import type { Generated } from 'kysely';

/**
 * Table and column names are PascalCase, the spec's vocabulary, so rows map to API fields without renaming.
 * Flags are integers 0/1 and instants are epoch milliseconds (bigint): both behave alike on SQLite and PostgreSQL.
 */
export interface AreaInfoTable {
  Id: Generated<number>;
  Name: string;
  Custom: string | null;
  Disabled: Generated<number>;
  CreatedAt: number;
  UpdatedAt: number;
}

export interface AppUserTable {
  Id: Generated<number>;
  UserName: string;
  Name: string;
  PasswordHash: string;
  Avatar: string | null;
  Phone: string | null;
  Email: string | null;
  DepartmentId: number | null;
  Disabled: Generated<number>;
  BuiltIn: Generated<number>;
  CreatedAt: number;
  UpdatedAt: number;
}

export interface RoleTable {
  Id: Generated<number>;
  Code: string;
  Name: string;
  Description: string | null;
  BuiltIn: Generated<number>;
  CreatedAt: number;
  UpdatedAt: number;
}

export interface ResourceTable {
  Id: Generated<number>;
  Code: string;
  Name: string;
  ParentId: number | null;
  Type: 'menu' | 'permission';
  Sort: Generated<number>;
  BuiltIn: Generated<number>;
}

export interface RoleResourceTable {
  RoleId: number;
  ResourceId: number;
}

export interface UserRoleTable {
  UserId: number;
  RoleId: number;
}

export interface UserAreaTable {
  UserId: number;
  AreaId: number;
}

export interface SessionTable {
  TokenHash: string;
  UserId: number;
  CreatedAt: number;
  LastSeenAt: number;
  Ip: string | null;
  UserAgent: string | null;
}

export interface SettingTable {
  Key: string;
  Value: string;
  UpdatedAt: number;
}

export interface DepartmentTable {
  Id: Generated<number>;
  AreaId: number;
  ParentId: number | null;
  Name: string;
  Sort: Generated<number>;
  CreatedAt: number;
  UpdatedAt: number;
}

/** People groups and people types share one shape: named, per area. */
export interface NamedListTable {
  Id: Generated<number>;
  AreaId: number;
  Name: string;
  Remark: string | null;
  Sort: Generated<number>;
  CreatedAt: number;
  UpdatedAt: number;
}

export interface OperatorStaffTable {
  Id: Generated<number>;
  AreaId: number;
  Name: string;
  /** wechatUserType: 0 operations, 1 management, 2 maintenance. */
  StaffType: number;
  Phone: string | null;
  Email: string | null;
  WechatOpenId: string | null;
  Remark: string | null;
  Disabled: Generated<number>;
  CreatedAt: number;
  UpdatedAt: number;
}

export interface AuditLogTable {
  Id: Generated<number>;
  At: number;
  /**
   * Who acted: 'user', 'device' or 'system' (migration 0005), or 'key' (an API key, 0025); UserName holds a
   * device's, the system's or the key's name.
   */
  ActorKind: Generated<'user' | 'device' | 'system' | 'key'>;
  /** The user's, device's or key's id (null for the system). */
  ActorId: number | null;
  UserId: number | null;
  UserName: string | null;
  AreaId: number | null;
  Action: string;
  Entity: string;
  EntityId: string | null;
  Before: string | null;
  After: string | null;
  Ip: string | null;
}

export type ExportStatus = 'pending' | 'running' | 'done' | 'failed' | 'expired';

export interface ExportJobTable {
  Id: Generated<number>;
  AreaId: number;
  UserId: number | null;
  UserName: string;
  Resource: string;
  Title: string;
  Lang: string;
  Query: string;
  Status: ExportStatus;
  Progress: Generated<number>;
  RowCount: Generated<number>;
  Size: Generated<number>;
  FileName: string | null;
  Error: string | null;
  CreatedAt: number;
  FinishedAt: number | null;
  ExpiresAt: number | null;
}

/** One counted login attempt on one throttle key (platform/auth/throttle.ts). */
export interface LoginAttemptTable {
  Id: Generated<number>;
  Key: string;
  At: number;
}

/** A throttle key locked until LockedUntil; Locks counts the locks in a row (each doubles the next). */
export interface LoginLockTable {
  Key: string;
  LockedUntil: number;
  Locks: number;
}

/** A one-time ticket to open the live hub (its hash; the ticket itself is only in the browser's URL). */
export interface HubTicketTable {
  TicketHash: string;
  TokenHash: string;
  AreaId: number;
  ExpiresAt: number;
}

/** An API key (platform/auth/api-keys.ts): only the SHA-256 of its secret is kept. */
export interface ApiKeyTable {
  Id: Generated<number>;
  Name: string;
  /** The secret's first characters, shown in lists and the operation log. */
  Prefix: string;
  KeyHash: string;
  /** JSON array of permission codes, fixed when the key is made. */
  Codes: string;
  CreatedById: number | null;
  CreatedByName: string;
  CreatedAt: number;
  ExpiresAt: number | null;
  LastUsedAt: number | null;
  LastUsedIp: string | null;
  RevokedAt: number | null;
  RevokedByName: string | null;
}

/** The areas an API key operates. */
export interface ApiKeyAreaTable {
  ApiKeyId: number;
  AreaId: number;
}

/**
 * The platform's tables (sessions, settings, the audit log and export jobs) and the system and organization
 * modules' (users, roles, resources, areas, departments, named lists, operator staff), created by the
 * platform's migrations. Joined to the one `Database` type by declaration merging (db/schema.ts).
 */
export interface PlatformTables {
  AreaInfo: AreaInfoTable;
  AppUser: AppUserTable;
  Role: RoleTable;
  Resource: ResourceTable;
  RoleResource: RoleResourceTable;
  UserRole: UserRoleTable;
  UserArea: UserAreaTable;
  Session: SessionTable;
  Setting: SettingTable;
  Department: DepartmentTable;
  PeopleGroup: NamedListTable;
  PeopleType: NamedListTable;
  OperatorStaff: OperatorStaffTable;
  AuditLog: AuditLogTable;
  ExportJob: ExportJobTable;
  LoginAttempt: LoginAttemptTable;
  LoginLock: LoginLockTable;
  HubTicket: HubTicketTable;
  ApiKey: ApiKeyTable;
  ApiKeyArea: ApiKeyAreaTable;
}

declare module '../db/schema.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged, not empty
  interface Database extends PlatformTables {}
}
