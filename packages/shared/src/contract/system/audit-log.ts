import { z } from 'zod';
import { resourceApi } from '../operation.ts';
import { SUPER_ADMIN } from '../permissions.ts';
import { filterSchema } from '../wire.ts';

/** The operation log: every write of every module, newest first (SuperAdmin). */
export const auditLogItem = z.object({
  Id: z.number(),
  At: z.string(),
  UserId: z.number().nullable(),
  /**
   * Who acted: a user (UserName is the login), a device (its name), a system job (its name as written) or an
   * API key (its name; ActorId is the key's).
   */
  ActorKind: z.enum(['user', 'device', 'system', 'key']),
  UserName: z.string().nullable(),
  AreaId: z.number().nullable(),
  AreaName: z.string().nullable(),
  Action: z.string(),
  Entity: z.string(),
  EntityId: z.string().nullable(),
  /** The object's current name when the entry's snapshots name nothing (null otherwise, or when deleted). */
  EntityName: z.string().nullable(),
  Before: z.string().nullable(),
  After: z.string().nullable(),
  Ip: z.string().nullable(),
});
export type AuditLogItem = z.output<typeof auditLogItem>;

/** Entries of every area and of global things (roles, settings): the operation log is for SuperAdmin. */
export const AuditLogApi = resourceApi({
  name: 'AuditLog',
  area: false,
  read: SUPER_ADMIN,
  write: SUPER_ADMIN,
  item: auditLogItem,
  filters: {
    UserName: filterSchema.text(),
    UserId: filterSchema.id(),
    Action: filterSchema.equals(40),
    Entity: filterSchema.equals(60),
    AreaId: filterSchema.id(),
  },
  sorts: ['At'],
  timeRange: true,
});
