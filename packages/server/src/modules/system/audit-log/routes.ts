import { AuditLogApi, auditWords, isoInstant, type AuditLogItem, type Lang } from '@gatehouse/shared';
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
    columns: [
      { key: 'At', labelKey: 'admin.field.At', kind: 'instant' },
      { key: 'UserName', labelKey: 'admin.field.Operator', value: (item) => item, label: words('actor') },
      { key: 'AreaName', labelKey: 'admin.field.Area' },
      { key: 'Action', labelKey: 'admin.field.Action', value: (item) => item, label: words('action') },
      { key: 'Entity', labelKey: 'admin.field.Entity', value: (item) => item, label: words('object') },
      { key: 'EntityId', labelKey: 'admin.field.EntityId' },
      { key: 'Before', labelKey: 'admin.field.Before', width: 50 },
      { key: 'After', labelKey: 'admin.field.After', width: 50 },
      { key: 'Ip', labelKey: 'admin.field.Ip' },
    ],
  },
});
