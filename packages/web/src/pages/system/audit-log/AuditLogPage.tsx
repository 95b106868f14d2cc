import { AuditLogApi, type AuditLogItem } from '@gatehouse/shared';
import {
  SUPER_ADMIN,
  auditActionKey,
  auditEntityKey,
  auditFieldKeys,
  auditSnapshot,
  recordedObjectName,
} from '@gatehouse/shared';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';

type AuditRow = AuditLogItem;

/** The names of the fields whose values differ between before and after: what the change was. */
export function changedFields(before: string | null, after: string | null): string[] {
  const a = auditSnapshot(before);
  const b = auditSnapshot(after);
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => k !== 'UpdatedAt' && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** The object's name as its entry recorded it (after the change, else before), or null. */
export const objectName = recordedObjectName;

type Tr = (key: string, options?: Record<string, unknown>) => string;

/**
 * The words of one log row in the operator's language: action, object type and changed fields through the
 * shared catalogue (`audit.*`, then the modules' field labels); a word without a label shows its raw key,
 * which the shared catalogue test prevents for everything the server writes.
 */
export function auditWords(row: AuditRow, tr: Tr) {
  return {
    action: tr(auditActionKey(row.Action), { defaultValue: row.Action }),
    entity: tr(auditEntityKey(row.Entity), { defaultValue: row.Entity }),
    // Two fields may share a label (CardUserId and HolderName are both "card holder"): each label once.
    fields: [
      ...new Set(
        changedFields(row.Before, row.After).map((f) =>
          tr(auditFieldKeys(f) as unknown as string, { defaultValue: f }),
        ),
      ),
    ],
  };
}

const ACTIONS = [
  'create',
  'update',
  'delete',
  'status',
  'setAuth',
  'setCustom',
  'setResources',
  'bindDepartment',
  'resetPassword',
  'modifyPassword',
  'updateOwnInfo',
  'unlock',
  'login',
  'loginFailed',
  'lockout',
  'logout',
  'modifyPasswordFailed',
  'export',
  'download',
] as const;

/** The operation log: every write of every module, newest first, by user, action and time (at most 61 days). */
const config: ListPageConfig<AuditRow> = {
  api: AuditLogApi,
  read: SUPER_ADMIN,
  write: [],
  actions: { export: true },
  defaultSort: { field: 'At', order: 'desc' },
  filters: [
    { name: 'At', label: 'admin.field.At', kind: 'dateRange', defaultDays: 7 },
    { name: 'UserName', label: 'admin.field.Operator', kind: 'text' },
    {
      name: 'Action',
      label: 'admin.field.Action',
      kind: 'select',
      options: {
        kind: 'static',
        options: (t) => ACTIONS.map((a) => ({ value: a, label: (t as unknown as Tr)(auditActionKey(a)) })),
      },
    },
  ],
  columns: [
    { key: 'At', title: 'admin.field.At', kind: 'instant', sort: 'At', width: 170 },
    { key: 'UserName', title: 'admin.field.Operator', width: 110 },
    { key: 'AreaName', title: 'admin.field.Area', width: 120 },
    {
      key: 'Action',
      title: 'admin.field.Action',
      width: 140,
      render: (row, tr) => auditWords(row, tr as Tr).action,
    },
    {
      // The object: its type and the name it had (else its name now); its id only when it has no name.
      key: 'Entity',
      title: 'admin.field.Entity',
      width: 190,
      render: (row, tr) => {
        const name = objectName(row) ?? row.EntityName;
        return [auditWords(row, tr as Tr).entity, name ?? (row.EntityId ? `#${row.EntityId}` : null)]
          .filter(Boolean)
          .join(' ');
      },
    },
    {
      key: 'After',
      title: 'adminUi.changedFields',
      // Bounded, so the IP address after it stays in view at 1440 px; long lists wrap.
      width: 200,
      render: (row, tr) => (
        <Typography.Text type="secondary">
          {auditWords(row, tr as Tr).fields.join(', ') || '-'}
        </Typography.Text>
      ),
    },
    // Wide enough for an IPv6-mapped address (::ffff:192.168.100.200) without cutting it.
    { key: 'Ip', title: 'admin.field.Ip', width: 190 },
  ],
};

export default function AuditLogPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.auditLog')} />;
}
