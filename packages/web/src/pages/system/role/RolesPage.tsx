import { ROLE_ADMIN, RoleApi, type RoleItem } from '@gatehouse/shared';
import { Tag } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { RoleResourcesDialog } from './RoleResourcesDialog.tsx';
import { systemDialogs } from '../dialogs.ts';

type RoleRow = RoleItem;

/** Roles: named sets of permission codes; the built-in admin role is shown but cannot change. */
const config: ListPageConfig<RoleRow> = {
  api: RoleApi,
  read: ROLE_ADMIN,
  write: ROLE_ADMIN,
  actions: { create: true, edit: true, remove: true, export: true },
  filters: [{ name: 'Keyword', label: 'adminUi.keyword', kind: 'text' }],
  columns: [
    { key: 'Code', title: 'admin.field.Code', sort: 'Code', width: 200 },
    {
      key: 'Name',
      title: 'admin.field.Name',
      sort: 'Name',
      render: (row, tr) => (
        <>
          {row.Name} {row.BuiltIn && <Tag color="gold">{tr('adminUi.builtIn')}</Tag>}
        </>
      ),
    },
    { key: 'Description', title: 'admin.field.Description', ellipsis: true },
    {
      key: 'ResourceIds',
      title: 'adminUi.resourceCount',
      width: 110,
      render: (row) => row.ResourceIds.length,
    },
    { key: 'UserCount', title: 'admin.field.UserCount', width: 100 },
    { key: 'CreatedAt', title: 'admin.field.CreatedAt', kind: 'instant', sort: 'CreatedAt', width: 170 },
  ],
  form: {
    fields: [
      {
        name: 'Code',
        label: 'admin.field.Code',
        kind: 'text',
        required: true,
        maxLength: 50,
        lockedOnEdit: true,
        extra: 'adminUi.roleCodeRule',
      },
      { name: 'Name', label: 'admin.field.Name', kind: 'text', required: true, maxLength: 50 },
      { name: 'Description', label: 'admin.field.Description', kind: 'textarea', maxLength: 200 },
    ],
  },
  rowActions: [
    {
      key: 'assign',
      label: 'adminUi.assignResources',
      visible: (row) => !row.BuiltIn,
      run: (row) => systemDialogs.open('roleResources', row),
    },
  ],
};

export default function RolesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <>
      <ListPage config={config} title={t('route.roles')} />
      <RoleResourcesDialog
        role={systemDialogs.use('roleResources')}
        onClose={() => systemDialogs.close('roleResources')}
        onSaved={() => void queryClient.invalidateQueries({ queryKey: ['list', RoleApi.name] })}
      />
    </>
  );
}
