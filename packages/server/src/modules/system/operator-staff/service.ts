import type { OperatorStaffApi } from '@gatehouse/shared';
import type { z } from 'zod';

type Fields = Partial<z.output<typeof OperatorStaffApi.update.body>>;

/** The columns a create or update sets: what the body gives (an update leaves absent fields as they are). */
export const staffValues = (input: Fields) =>
  Object.fromEntries(Object.entries(input).filter(([key, v]) => key !== 'Id' && v !== undefined));

/** A new staff member: contact fields the body leaves out are empty. */
export const newStaff = (input: Fields) => ({
  Phone: null,
  Email: null,
  WechatOpenId: null,
  Remark: null,
  ...staffValues(input),
});
