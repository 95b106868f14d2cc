import { isoInstant, SUPER_ADMIN, auditLogItem } from '@gatehouse/shared';
import type { z } from 'zod';
import { filter } from '../../../platform/filters.ts';
import { defineResource } from '../../../platform/resource.ts';

export const auditLogRoutes = defineResource({
  name: 'AuditLog',
  table: 'AuditLog',
  tag: 'AuditLog',
  // Entries of every area and of global things (roles, settings): the operation log is for SuperAdmin.
  area: false,
  read: SUPER_ADMIN,
  write: SUPER_ADMIN,
  item: auditLogItem,
  query: (db) =>
    db
      .selectFrom('AuditLog')
      .leftJoin('AreaInfo', 'AreaInfo.Id', 'AuditLog.AreaId')
      .select([
        'AuditLog.Id',
        'AuditLog.At',
        'AuditLog.UserId',
        'AuditLog.UserName',
        'AuditLog.AreaId',
        'AreaInfo.Name as AreaName',
        'AuditLog.Action',
        'AuditLog.Entity',
        'AuditLog.EntityId',
        'AuditLog.Before',
        'AuditLog.After',
        'AuditLog.Ip',
      ]),
  toItem: (row) => ({ ...(row as z.infer<typeof auditLogItem>), At: isoInstant(Number(row.At)) }),
  filters: {
    UserName: filter.like('AuditLog.UserName'),
    UserId: filter.id('AuditLog.UserId'),
    Action: filter.equals('AuditLog.Action', 40),
    Entity: filter.equals('AuditLog.Entity', 60),
    AreaId: filter.id('AuditLog.AreaId'),
  },
  sorts: { At: 'AuditLog.At' },
  defaultOrder: 'desc',
  timeRange: { column: 'AuditLog.At', requiredForExport: true },
  export: {
    titleKey: 'admin.title.auditLog',
    columns: [
      { key: 'At', labelKey: 'admin.field.At', kind: 'instant' },
      { key: 'UserName', labelKey: 'admin.field.UserName' },
      { key: 'AreaName', labelKey: 'admin.field.Area' },
      { key: 'Action', labelKey: 'admin.field.Action' },
      { key: 'Entity', labelKey: 'admin.field.Entity' },
      { key: 'EntityId', labelKey: 'admin.field.EntityId' },
      { key: 'Before', labelKey: 'admin.field.Before', width: 50 },
      { key: 'After', labelKey: 'admin.field.After', width: 50 },
      { key: 'Ip', labelKey: 'admin.field.Ip' },
    ],
  },
});
