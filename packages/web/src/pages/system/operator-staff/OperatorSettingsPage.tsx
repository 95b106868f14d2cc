import { OperatorStaffApi, type OperatorStaffItem } from '@gatehouse/shared';
import { useTranslation } from 'react-i18next';
import { email, phone, wechatUserType, APP_USER_ADMIN_CONFIG } from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';

type StaffRow = OperatorStaffItem;

const staffTypes = { kind: 'enum', def: wechatUserType } as const;

/** Operator settings: the staff who handle the current area; fault reports go to them. */
const config: ListPageConfig<StaffRow> = {
  api: OperatorStaffApi,
  read: APP_USER_ADMIN_CONFIG,
  write: APP_USER_ADMIN_CONFIG,
  actions: { create: true, edit: true, remove: true, batchRemove: true, status: true, export: true },
  filters: [
    { name: 'Keyword', label: 'adminUi.keyword', kind: 'text', placeholder: 'adminUi.staffKeyword' },
    { name: 'StaffType', label: 'admin.field.StaffType', kind: 'select', options: staffTypes },
    { name: 'Disabled', label: 'admin.field.Status', kind: 'bool' },
  ],
  columns: [
    { key: 'Name', title: 'admin.field.PersonName', sort: 'Name', width: 120 },
    {
      key: 'StaffType',
      title: 'admin.field.StaffType',
      kind: 'enum',
      enumDef: wechatUserType,
      sort: 'StaffType',
      width: 120,
    },
    { key: 'Phone', title: 'admin.field.Phone', width: 130 },
    { key: 'Email', title: 'admin.field.Email', width: 200 },
    { key: 'Remark', title: 'admin.field.Remark', ellipsis: true },
    { key: 'Disabled', title: 'admin.field.Status', kind: 'status', width: 100 },
    { key: 'CreatedAt', title: 'admin.field.CreatedAt', kind: 'instant', sort: 'CreatedAt', width: 170 },
  ],
  form: {
    width: 720,
    fields: [
      { name: 'Name', label: 'admin.field.PersonName', kind: 'text', required: true, maxLength: 50 },
      {
        name: 'StaffType',
        label: 'admin.field.StaffType',
        kind: 'select',
        required: true,
        options: staffTypes,
      },
      { name: 'Phone', label: 'admin.field.Phone', kind: 'text', rules: [phone], maxLength: 11 },
      { name: 'Email', label: 'admin.field.Email', kind: 'text', rules: [email], maxLength: 100 },
      { name: 'WechatOpenId', label: 'admin.field.WechatOpenId', kind: 'text', maxLength: 64, wide: true },
      { name: 'Remark', label: 'admin.field.Remark', kind: 'textarea', maxLength: 200 },
    ],
  },
};

export default function OperatorSettingsPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.operatorSettings')} />;
}
