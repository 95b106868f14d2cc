import { z } from 'zod';
import { MAX_PASS_UNITS } from '../../tariff/tariff.ts';
import { operation, resourceApi } from '../operation.ts';
import { BICYCLE_ADMIN, BICYCLE_ANY } from '../permissions.ts';
import { bodyInstant, filterSchema, id, idParams, optionalText } from '../wire.ts';
import { GARAGE_TAG } from './common.ts';

/** A monthly pass against the server's clock (catalogue garage.passStatus.<Status>). */
export const MONTHLY_PASS_STATUSES = ['Upcoming', 'Active', 'Expired'] as const;
export type MonthlyPassStatus = (typeof MONTHLY_PASS_STATUSES)[number];

/** A MonthlyPass row, as GET /api/MonthlyPass lists it and GET /api/MonthlyPass/{Id} returns it. */
export const monthlyPassItem = z.object({
  Id: z.number(),
  VehicleId: z.number(),
  Plate: z.string(),
  OwnerName: z.string().nullable(),
  ChargeRuleId: z.number(),
  RuleName: z.string(),
  ChargeType: z.number(),
  TimeUnit: z.number().nullable(),
  StartAt: z.string(),
  /** Exclusive. */
  EndAt: z.string(),
  Units: z.number(),
  AmountCents: z.number(),
  /** Against the server's clock: catalogue garage.passStatus.<Status>. */
  Status: z.enum(MONTHLY_PASS_STATUSES),
  RenewedFromId: z.number().nullable(),
  Remark: z.string().nullable(),
  UserName: z.string(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type MonthlyPassItem = z.output<typeof monthlyPassItem>;

const units = z.number().int().min(1).max(MAX_PASS_UNITS);
const remark = optionalText(200);

/** Monthly passes: list, sell (both codes), renew (both codes), delete (Admin). */
export const MonthlyPassApi = {
  sell: operation({
    method: 'POST',
    path: '/api/MonthlyPass',
    summary: 'Sell a monthly pass (end and price computed by the server)',
    tag: GARAGE_TAG,
    access: BICYCLE_ANY,
    area: true,
    body: z.strictObject({
      VehicleId: id,
      ChargeRuleId: id,
      StartAt: bodyInstant,
      Units: units,
      Remark: remark,
    }),
    reply: monthlyPassItem,
  }),
  renew: operation({
    method: 'POST',
    path: '/api/MonthlyPass/Renew',
    summary: 'Renew a monthly pass under the same rule, starting where it ends',
    tag: GARAGE_TAG,
    access: BICYCLE_ANY,
    area: true,
    body: z.strictObject({ Id: id, Units: units, Remark: remark }),
    reply: monthlyPassItem,
  }),
  /** Not the standard delete: passes are written by both codes, corrected by the Admin only. */
  deletePass: operation({
    method: 'DELETE',
    path: '/api/MonthlyPass/:Id',
    summary: 'Delete a monthly pass (corrections)',
    tag: GARAGE_TAG,
    access: BICYCLE_ADMIN,
    area: true,
    params: idParams,
  }),
  ...resourceApi({
    name: 'MonthlyPass',
    tag: GARAGE_TAG,
    area: true,
    read: BICYCLE_ANY,
    write: BICYCLE_ANY,
    item: monthlyPassItem,
    filters: {
      Plate: filterSchema.text(),
      VehicleId: filterSchema.id(),
      ChargeRuleId: filterSchema.id(),
      /** Passes valid at this instant (send now for "active"). */
      ValidAt: filterSchema.instant(),
      /** Passes ending at or before this instant (expired, or expiring soon). */
      EndBefore: filterSchema.instant(),
    },
    sorts: ['StartAt', 'EndAt', 'Plate'],
  }),
};
