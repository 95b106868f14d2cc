import { AuditLogApi, auditWords, isoInstant, type AuditLogItem, type Lang } from '@gatehouse/shared';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { auditTr, withEntityNames } from './service.ts';

/** An export column in the words the screen shows (who, the action, the object). */
const words =
  (word: 'actor' | 'action' | 'object') =>
  (item: AuditLogItem, lang: Lang): string =>
    auditWords(item, auditTr(lang))[word];

export const auditLogRoutes = implementResource(AuditLogApi, {
  table: 'AuditLog',
  query: (db) =>
    db
      .selectFrom('AuditLog')
      .leftJoin('AreaInfo', 'AreaInfo.Id', 'AuditLog.AreaId')
      .select([
        'AuditLog.Id',
        'AuditLog.At',
        'AuditLog.UserId',
        'AuditLog.ActorKind',
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
  toItem: (row) => ({ ...(row as AuditLogItem), At: isoInstant(Number(row.At)), EntityName: null }),
  enrich: withEntityNames,
  where: {
    UserName: match.like('AuditLog.UserName'),
    UserId: match.equals('AuditLog.UserId'),
    Action: match.equals('AuditLog.Action'),
    Entity: match.equals('AuditLog.Entity'),
    AreaId: match.equals('AuditLog.AreaId'),
  },
  sorts: { At: 'AuditLog.At' },
  defaultOrder: 'desc',
  timeRange: { column: 'AuditLog.At', requiredForExport: true },
  export: {
    titleKey: 'admin.title.auditLog',
    columns: exportColumns('admin.field', {
      At: 'instant',
      UserName: { header: 'Operator', label: words('actor'), value: (item) => item },
      AreaName: { header: 'Area' },
      Action: { label: words('action'), value: (item) => item },
      Entity: { label: words('object'), value: (item) => item },
      EntityId: 'text',
      Before: 50,
      After: 50,
      Ip: 'text',
    }),
  },
});
