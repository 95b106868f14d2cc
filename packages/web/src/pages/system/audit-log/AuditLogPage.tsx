import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';

interface AuditRow {
  Id: number;
  At: string;
  UserName: string | null;
  AreaName: string | null;
  Action: string;
  Entity: string;
  EntityId: string | null;
  Before: string | null;
  After: string | null;
  Ip: string | null;
  [key: string]: unknown;
}

/** The names of the fields whose values differ between before and after: what the change was. */
export function changedFields(before: string | null, after: string | null): string[] {
  const parse = (text: string | null): Record<string, unknown> => {
    try {
      const value: unknown = JSON.parse(text ?? 'null');
      return value && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : {};
    } catch {
      return {};
    }
  };
  const a = parse(before);
  const b = parse(after);
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => k !== 'UpdatedAt' && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
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
] as const;

/** The operation log: every write of every module, newest first, by user, action and time (at most 61 days). */
const config: ListPageConfig<AuditRow> = {
  resource: 'AuditLog',
  read: ['SuperAdmin'],
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
        options: (t) => ACTIONS.map((a) => ({ value: a, label: t(`admin.action.${a}`) })),
      },
    },
  ],
  columns: [
    { key: 'At', title: 'admin.field.At', kind: 'instant', sort: 'At', width: 170 },
    { key: 'UserName', title: 'admin.field.Operator', width: 120 },
    { key: 'AreaName', title: 'admin.field.Area', width: 140 },
    {
      key: 'Action',
      title: 'admin.field.Action',
      width: 120,
      render: (row, tr) =>
        (ACTIONS as readonly string[]).includes(row.Action)
          ? tr(`admin.action.${row.Action as (typeof ACTIONS)[number]}`)
          : row.Action,
    },
    { key: 'Entity', title: 'admin.field.Entity', width: 140 },
    { key: 'EntityId', title: 'admin.field.EntityId', width: 90 },
    {
      key: 'After',
      title: 'adminUi.changedFields',
      render: (row) => (
        <Typography.Text type="secondary">
          {changedFields(row.Before, row.After).join(', ') || '-'}
        </Typography.Text>
      ),
    },
    { key: 'Ip', title: 'admin.field.Ip', width: 130 },
  ],
};

export default function AuditLogPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.auditLog')} />;
}
