import { z } from 'zod';

/** An id and a name: the shape of most choices in GET /api/Options/…. */
export const option = z.object({ Id: z.number(), Name: z.string() });
export type Option = z.output<typeof option>;

/** A role to assign (GET /api/Options/Roles). */
export const roleOption = option.extend({ Code: z.string() });
export type RoleOption = z.output<typeof roleOption>;

/** A user to authorise for an area (GET /api/Options/Users). */
export const userOption = option.extend({ UserName: z.string() });
export type UserOption = z.output<typeof userOption>;

// Type aliases rather than interfaces, so that a tree row is assignable to the web's indexed rows.
export type DepartmentOption = {
  Id: number;
  Name: string;
  Children: DepartmentOption[];
};

/** The department tree as a choice (GET /api/Options/Departments): ids and names only. */
export const departmentOption: z.ZodType<DepartmentOption> = z
  .object({
    Id: z.number(),
    Name: z.string(),
    get Children() {
      return z.array(departmentOption);
    },
  })
  .meta({ id: 'DepartmentOption' });

/** A resource (menu or permission code) as its list and detail return it. */
export const resourceItem = z.object({
  Id: z.number(),
  Code: z.string(),
  Name: z.string(),
  ParentId: z.number().nullable(),
  Type: z.enum(['menu', 'permission']),
  Sort: z.number(),
  BuiltIn: z.boolean(),
  RoleCount: z.number(),
});
export type ResourceItem = z.output<typeof resourceItem>;

export type ResourceNode = ResourceItem & { Children: ResourceNode[] };

/** One node of GET /api/Resource/Tree (named for OpenAPI: see departmentNode). */
export const resourceNode: z.ZodType<ResourceNode> = resourceItem
  .extend({
    get Children() {
      return z.array(resourceNode);
    },
  })
  .meta({ id: 'ResourceNode' });

/** The operation log: every write of every module, newest first (SuperAdmin). */
export const auditLogItem = z.object({
  Id: z.number(),
  At: z.string(),
  UserId: z.number().nullable(),
  UserName: z.string().nullable(),
  AreaId: z.number().nullable(),
  AreaName: z.string().nullable(),
  Action: z.string(),
  Entity: z.string(),
  EntityId: z.string().nullable(),
  Before: z.string().nullable(),
  After: z.string().nullable(),
  Ip: z.string().nullable(),
});
export type AuditLogItem = z.output<typeof auditLogItem>;

/** A Role row, as GET /api/Role lists it and GET /api/Role/{Id} returns it. */
export const roleItem = z.object({
  Id: z.number(),
  Code: z.string(),
  Name: z.string(),
  Description: z.string().nullable(),
  BuiltIn: z.boolean(),
  UserCount: z.number(),
  ResourceIds: z.array(z.number()),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type RoleItem = z.output<typeof roleItem>;

/**
 * Operator settings: per area, the staff who handle it (operations, management, maintenance), with
 * contact details. The access-control module sends fault reports to them.
 */
export const operatorStaffItem = z.object({
  Id: z.number(),
  Name: z.string(),
  StaffType: z.number(),
  Phone: z.string().nullable(),
  Email: z.string().nullable(),
  WechatOpenId: z.string().nullable(),
  Remark: z.string().nullable(),
  Disabled: z.boolean(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type OperatorStaffItem = z.output<typeof operatorStaffItem>;

export const settingsValues = z.object({
  SiteTitle: z.string(),
  ImageBaseUrl: z.string(),
  SessionTtlSeconds: z.number(),
  LoginMaxFailures: z.number(),
  LoginLockMinutes: z.number(),
  ExportRetentionDays: z.number(),
});
export type SettingsValues = z.output<typeof settingsValues>;

/** A ExportJob row, as GET /api/ExportJob lists it and GET /api/ExportJob/{Id} returns it. */
export const exportJobItem = z.object({
  Id: z.number(),
  Resource: z.string(),
  Title: z.string(),
  Status: z.enum(['pending', 'running', 'done', 'failed', 'expired']),
  Progress: z.number(),
  RowCount: z.number(),
  Size: z.number(),
  FileName: z.string().nullable(),
  Error: z.string().nullable(),
  UserName: z.string(),
  CreatedAt: z.string(),
  FinishedAt: z.string().nullable(),
  ExpiresAt: z.string().nullable(),
});
export type ExportJobItem = z.output<typeof exportJobItem>;

export const areaInfoDetail = z.object({ Id: z.number(), Name: z.string(), Custom: z.string().nullable() });
export type AreaInfoDetail = z.output<typeof areaInfoDetail>;

/** A AppUser row, as GET /api/AppUser lists it and GET /api/AppUser/{Id} returns it. */
export const appUserItem = z.object({
  Id: z.number(),
  UserName: z.string(),
  Name: z.string(),
  Avatar: z.string().nullable(),
  Phone: z.string().nullable(),
  Email: z.string().nullable(),
  DepartmentId: z.number().nullable(),
  DepartmentName: z.string().nullable(),
  Disabled: z.boolean(),
  BuiltIn: z.boolean(),
  Roles: z.array(z.object({ Id: z.number(), Code: z.string(), Name: z.string() })),
  Areas: z.array(z.object({ Id: z.number(), Name: z.string() })),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type AppUserItem = z.output<typeof appUserItem>;

/** An area as the area list returns it. */
export const areaInfoItem = areaInfoDetail.extend({
  Disabled: z.boolean(),
  UserCount: z.number(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type AreaInfoItem = z.output<typeof areaInfoItem>;
