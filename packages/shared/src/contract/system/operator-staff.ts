import { z } from 'zod';
import { wechatUserType } from '../../enums/index.ts';
import { email, phone, zodRule } from '../../validators/index.ts';
import { resourceApi } from '../operation.ts';
import { APP_USER_ADMIN_CONFIG } from '../permissions.ts';
import { enumNumber, filterSchema, id, optionalText } from '../wire.ts';

/**
 * Operator settings: per area, the staff who handle it (operations, management, maintenance), with
 * contact details. The access-control module sends fault reports to them.
 */
export const operatorStaffItem = z.object({
  Id: z.number(),
  Name: z.string(),
  StaffType: z.number(),
  Phone: z.string().nullable(),
  Email: z.string().nullable(),
  WechatOpenId: z.string().nullable(),
  Remark: z.string().nullable(),
  Disabled: z.boolean(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type OperatorStaffItem = z.output<typeof operatorStaffItem>;

const fields = {
  Name: z.string().trim().min(1).max(50),
  StaffType: enumNumber(wechatUserType),
  Phone: optionalText(11).superRefine(zodRule(phone)),
  Email: optionalText(100).superRefine(zodRule(email)),
  WechatOpenId: optionalText(64),
  Remark: optionalText(200),
};

export const OperatorStaffApi = resourceApi({
  name: 'OperatorStaff',
  tag: 'AppUser',
  area: true,
  read: APP_USER_ADMIN_CONFIG,
  write: APP_USER_ADMIN_CONFIG,
  item: operatorStaffItem,
  filters: {
    Keyword: filterSchema.text(),
    StaffType: filterSchema.oneOf(wechatUserType),
    Disabled: filterSchema.flag(),
  },
  sorts: ['Id', 'Name', 'StaffType', 'CreatedAt'],
  create: z.strictObject(fields),
  update: z.strictObject({ Id: id, ...fields }),
  remove: true,
  status: true,
});
