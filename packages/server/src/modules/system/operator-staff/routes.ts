import {
  disabledFlag,
  email,
  enumLabel,
  phone,
  wechatUserType,
  zodRule,
  APP_USER_ADMIN_CONFIG,
  operatorStaffItem,
} from '@gatehouse/shared';
import { z } from 'zod';
import { registerDependent, rowsWhere } from '../../../platform/dependents.ts';
import { filter } from '../../../platform/filters.ts';
import { defineResource, rowMapper } from '../../../platform/resource.ts';
import { enumNumber, optionalText } from '../../../platform/schemas.ts';

const fields = {
  Name: z.string().trim().min(1).max(50),
  StaffType: enumNumber(wechatUserType),
  Phone: optionalText(11).superRefine(zodRule(phone)),
  Email: optionalText(100).superRefine(zodRule(email)),
  WechatOpenId: optionalText(64),
  Remark: optionalText(200),
};

type Input = { [K in keyof typeof fields]: z.output<(typeof fields)[K]> };

const values = (input: Partial<Input>) =>
  Object.fromEntries(Object.entries(input).filter(([key, v]) => key !== 'Id' && v !== undefined));

/** Operator staff keep their area (called by the system face). */
export function registerOperatorStaffDependents(): void {
  registerDependent('AreaInfo', {
    labelKey: 'admin.entity.OperatorStaff',
    count: rowsWhere('OperatorStaff', 'AreaId'),
  });
}

export const operatorStaffRoutes = defineResource({
  name: 'OperatorStaff',
  table: 'OperatorStaff',
  tag: 'AppUser',
  area: true,
  read: APP_USER_ADMIN_CONFIG,
  write: APP_USER_ADMIN_CONFIG,
  item: operatorStaffItem,
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
  filters: {
    Keyword: filter.keyword(['OperatorStaff.Name', 'OperatorStaff.Phone', 'OperatorStaff.Email']),
    StaffType: filter.oneOf('OperatorStaff.StaffType', wechatUserType),
    Disabled: filter.flag('OperatorStaff.Disabled'),
  },
  sorts: {
    Id: 'OperatorStaff.Id',
    Name: 'OperatorStaff.Name',
    StaffType: 'OperatorStaff.StaffType',
    CreatedAt: 'OperatorStaff.CreatedAt',
  },
  timestamps: true,
  create: {
    body: z.strictObject(fields),
    values: (input) => ({ Phone: null, Email: null, WechatOpenId: null, Remark: null, ...values(input) }),
  },
  update: {
    body: z.strictObject({ Id: z.number().int().min(1), ...fields }),
    values: (input) => values(input),
  },
  remove: {},
  status: {},
  export: {
    titleKey: 'admin.title.operatorStaff',
    columns: [
      { key: 'Name', labelKey: 'admin.field.Name' },
      {
        key: 'StaffType',
        labelKey: 'admin.field.StaffType',
        label: (v, lang) => enumLabel(lang, wechatUserType, v),
      },
      { key: 'Phone', labelKey: 'admin.field.Phone', width: 16 },
      { key: 'Email', labelKey: 'admin.field.Email', width: 26 },
      { key: 'WechatOpenId', labelKey: 'admin.field.WechatOpenId', width: 30 },
      { key: 'Remark', labelKey: 'admin.field.Remark', width: 30 },
      {
        key: 'Disabled',
        labelKey: 'admin.field.Status',
        label: (v, lang) => enumLabel(lang, disabledFlag, v),
      },
      { key: 'CreatedAt', labelKey: 'admin.field.CreatedAt', kind: 'instant' },
    ],
  },
});
