import { disabledFlag, wechatUserType, OperatorStaffApi } from '@gatehouse/shared';
import { match } from '../../../platform/filters.ts';
import { implementResource, rowMapper } from '../../../platform/resource.ts';
import { newStaff, staffValues } from './service.ts';
import { enumColumn } from '../../../platform/exports/columns.ts';

export const operatorStaffRoutes = implementResource(OperatorStaffApi, {
  table: 'OperatorStaff',
  query: (db) =>
    db
      .selectFrom('OperatorStaff')
      .select([
        'Id',
        'Name',
        'StaffType',
        'Phone',
        'Email',
        'WechatOpenId',
        'Remark',
        'Disabled',
        'CreatedAt',
        'UpdatedAt',
      ]),
  toItem: rowMapper({}),
  where: {
    Keyword: match.keyword(['OperatorStaff.Name', 'OperatorStaff.Phone', 'OperatorStaff.Email']),
    StaffType: match.equals('OperatorStaff.StaffType'),
    Disabled: match.flag('OperatorStaff.Disabled'),
  },
  sorts: {
    Id: 'OperatorStaff.Id',
    Name: 'OperatorStaff.Name',
    StaffType: 'OperatorStaff.StaffType',
    CreatedAt: 'OperatorStaff.CreatedAt',
  },
  timestamps: true,
  create: { values: newStaff },
  update: { values: staffValues },
  remove: {},
  status: {},
  export: {
    titleKey: 'admin.title.operatorStaff',
    columns: [
      { key: 'Name', labelKey: 'admin.field.Name' },
      enumColumn('StaffType', 'admin.field.StaffType', wechatUserType),
      { key: 'Phone', labelKey: 'admin.field.Phone', width: 16 },
      { key: 'Email', labelKey: 'admin.field.Email', width: 26 },
      { key: 'WechatOpenId', labelKey: 'admin.field.WechatOpenId', width: 30 },
      { key: 'Remark', labelKey: 'admin.field.Remark', width: 30 },
      enumColumn('Disabled', 'admin.field.Status', disabledFlag),
      { key: 'CreatedAt', labelKey: 'admin.field.CreatedAt', kind: 'instant' },
    ],
  },
});
