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

export interface Database {
  AreaInfo: AreaInfoTable;
  AppUser: AppUserTable;
  Role: RoleTable;
  Resource: ResourceTable;
  RoleResource: RoleResourceTable;
  UserRole: UserRoleTable;
  UserArea: UserAreaTable;
  Session: SessionTable;
  Setting: SettingTable;
}
