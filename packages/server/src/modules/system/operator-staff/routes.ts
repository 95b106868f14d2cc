import { disabledFlag, wechatUserType, OperatorStaffApi } from '@gatehouse/shared';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource, rowMapper } from '../../../platform/resource.ts';
import { newStaff, staffValues } from './service.ts';

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
    columns: exportColumns('admin.field', {
      Name: 'text',
      StaffType: { enum: wechatUserType },
      Phone: 16,
      Email: 26,
      WechatOpenId: 30,
      Remark: 30,
      Disabled: { header: 'Status', enum: disabledFlag },
      CreatedAt: 'instant',
    }),
  },
});
