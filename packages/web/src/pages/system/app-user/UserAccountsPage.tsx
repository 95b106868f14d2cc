import { AppUserApi, type AppUserItem } from '@gatehouse/shared';
import { Form, Input, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { antdRule, email, phone, required, APP_USER_ADMIN } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { areaOptions, departmentOptions, roleOptions } from '../../options.ts';
import { FormModal } from '../../../components/FormModal.tsx';
import { useSessionStore } from '../../../stores/session.ts';
import { canUse } from '../../../components/list-page/permissions.ts';
import { LockTag, LocksBanner, isLocked, unlock, useLoginLocks } from './LoginLocks.tsx';
import { systemDialogs } from '../dialogs.ts';

type UserRow = AppUserItem;

/** System users of the current area: accounts, roles, areas, department, status and password reset. */
const config: ListPageConfig<UserRow> = {
  api: AppUserApi,
  read: APP_USER_ADMIN,
  write: APP_USER_ADMIN,
  actions: { create: true, edit: true, remove: true, batchRemove: true, status: true, export: true },
  filters: [
    { name: 'Keyword', label: 'adminUi.keyword', kind: 'text', placeholder: 'adminUi.userKeyword' },
    { name: 'RoleId', label: 'admin.field.Roles', kind: 'select', options: roleOptions },
    { name: 'Disabled', label: 'admin.field.Status', kind: 'bool' },
  ],
  columns: [
    {
      key: 'UserName',
      title: 'admin.field.UserName',
      sort: 'UserName',
      width: 160,
      render: (row) => (
        <Space size={4} wrap>
          {row.UserName}
          <LockTag userId={row.Id} />
        </Space>
      ),
    },
    { key: 'Name', title: 'admin.field.PersonName', sort: 'Name', width: 120 },
    { key: 'Phone', title: 'admin.field.Phone', width: 130 },
    { key: 'DepartmentName', title: 'admin.field.Department', width: 140 },
    {
      key: 'Roles',
      title: 'admin.field.Roles',
      render: (row) => row.Roles.map((r) => <Tag key={r.Id}>{r.Name}</Tag>),
    },
    {
      key: 'Areas',
      title: 'admin.field.Areas',
      render: (row) => row.Areas.map((a) => a.Name).join('、'),
    },
    { key: 'Disabled', title: 'admin.field.Status', kind: 'status', width: 100 },
    { key: 'CreatedAt', title: 'admin.field.CreatedAt', kind: 'instant', sort: 'CreatedAt', width: 170 },
  ],
  form: {
    width: 760,
    fields: [
      {
        name: 'UserName',
        label: 'admin.field.UserName',
        kind: 'text',
        required: true,
        maxLength: 64,
        lockedOnEdit: true,
      },
      {
        name: 'Password',
        label: 'admin.field.Password',
        kind: 'password',
        required: true,
        minLength: 8,
        maxLength: 64,
        only: 'create',
        extra: 'adminUi.passwordRule',
      },
      { name: 'Name', label: 'admin.field.PersonName', kind: 'text', required: true, maxLength: 50 },
      { name: 'Phone', label: 'admin.field.Phone', kind: 'text', rules: [phone], maxLength: 11 },
      { name: 'Email', label: 'admin.field.Email', kind: 'text', rules: [email], maxLength: 100 },
      {
        name: 'DepartmentId',
        label: 'admin.field.Department',
        kind: 'treeSelect',
        options: departmentOptions,
      },
      {
        name: 'RoleIds',
        label: 'admin.field.Roles',
        kind: 'multiSelect',
        options: roleOptions,
        fromItem: (u) => u.Roles.map((r) => r.Id),
        wide: true,
      },
      {
        name: 'AreaIds',
        label: 'admin.field.Areas',
        kind: 'multiSelect',
        options: areaOptions,
        fromItem: (u) => u.Areas.map((a) => a.Id),
        wide: true,
        extra: 'adminUi.areasHint',
      },
    ],
    toBody: (values) => ({ ...values, RoleIds: values.RoleIds ?? [], AreaIds: values.AreaIds ?? [] }),
  },
  rowActions: [
    {
      key: 'reset-password',
      label: 'adminUi.resetPassword',
      run: (row) => systemDialogs.open('resetPassword', row),
    },
    {
      // Shown by the locks last loaded: the page follows them (useLoginLocks), so the rows redraw with them.
      key: 'unlock',
      label: 'adminUi.unlock',
      visible: (row) => isLocked(row.Id),
      confirm: 'adminUi.confirmUnlock',
      run: (row) => unlock(row),
    },
  ],
};

export default function UserAccountsPage() {
  const { t } = useTranslation();
  // Accounts the login throttle holds locked now (a tag by the name, a banner and an unlock action).
  const locks = useLoginLocks();
  const canUnlock = canUse(
    useSessionStore((s) => s.roles),
    APP_USER_ADMIN,
  );
  return (
    <>
      <ListPage
        config={config}
        title={t('route.userAccounts')}
        header={<LocksBanner locks={locks} canUnlock={canUnlock} />}
      />
      <ResetPasswordDialog />
    </>
  );
}

function ResetPasswordDialog() {
  const { t } = useTranslation();
  const user = systemDialogs.use('resetPassword');
  const onClose = () => systemDialogs.close('resetPassword');
  const [form] = Form.useForm<{ NewPassword: string }>();
  return (
    <FormModal
      open={user !== null}
      title={`${t('adminUi.resetPassword')} · ${user?.Name ?? ''}`}
      destroyOnHidden
      okText={t('list.save')}
      onCancel={onClose}
      form={form}
      okTestId="reset-password-ok"
      onSubmit={async ({ NewPassword }) => {
        await call(AppUserApi.resetPassword, { body: { Id: user!.Id, NewPassword } });
        feedback.success(t('adminUi.passwordReset'));
        onClose();
      }}
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="NewPassword"
          label={t('admin.field.Password')}
          extra={t('adminUi.passwordRule')}
          rules={[antdRule((k) => t(k), required), { min: 8, max: 64, message: t('adminUi.passwordRule') }]}
        >
          <Input.Password autoComplete="new-password" data-testid="reset-password" />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
