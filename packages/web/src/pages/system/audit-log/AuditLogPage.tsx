import { AuditLogApi, type AuditLogItem } from '@gatehouse/shared';
import { SUPER_ADMIN, auditActionKey, auditWords, type AuditTr } from '@gatehouse/shared';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';

type AuditRow = AuditLogItem;
type Tr = (key: string, options?: Record<string, unknown>) => string;

/**
 * One row in the operator's words, through the shared operation-log vocabulary (the export uses the same):
 * who acted (a system job or a device by its label), the action, the object by the entity's own name rules
 * and the changed fields by the entity's own field labels.
 */
const words = (row: AuditRow, tr: Tr) => auditWords(row, tr as AuditTr);

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
    {
      key: 'UserName',
      title: 'admin.field.Operator',
      width: 110,
      render: (row, tr) => words(row, tr as Tr).actor,
    },
    { key: 'AreaName', title: 'admin.field.Area', width: 120 },
    {
      key: 'Action',
      title: 'admin.field.Action',
      width: 140,
      render: (row, tr) => words(row, tr as Tr).action,
    },
    {
      // The object: its type and the name it had (else its name now); its id only when it has no name.
      key: 'Entity',
      title: 'admin.field.Entity',
      width: 180,
      render: (row, tr) => words(row, tr as Tr).object,
    },
    {
      key: 'After',
      title: 'adminUi.changedFields',
      // Bounded, so the IP address after it stays in view at 1440 px; long lists wrap.
      width: 190,
      render: (row, tr) => (
        <Typography.Text type="secondary">{words(row, tr as Tr).fields.join(', ') || '-'}</Typography.Text>
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
