import { z } from 'zod';
import { zodRule } from '../../validators/adapters.ts';
import { cardNumber, phone, plate } from '../../validators/rules.ts';
import { resourceApi } from '../operation.ts';
import { BICYCLE_ANY } from '../permissions.ts';
import { filterSchema, id, optionalText } from '../wire.ts';
import { GARAGE_TAG } from './common.ts';

/** A Vehicle row, as GET /api/Vehicle lists it and GET /api/Vehicle/{Id} returns it. */
export const vehicleItem = z.object({
  Id: z.number(),
  Plate: z.string(),
  OwnerName: z.string().nullable(),
  Phone: z.string().nullable(),
  CardHolderId: z.number().nullable(),
  CardHolderName: z.string().nullable(),
  CardId: z.number().nullable(),
  CardNumber: z.string().nullable(),
  Remark: z.string().nullable(),
  Disabled: z.boolean(),
  /** The pass valid now, if any. */
  ActivePass: z
    .object({ Id: z.number(), RuleName: z.string(), ChargeType: z.number(), EndAt: z.string() })
    .nullable(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type VehicleItem = z.output<typeof vehicleItem>;

const fields = {
  // Not trimmed: the plate rule reports surrounding spaces (its message says so). Required: an empty plate
  // would reach the column's NOT NULL (the plate rule lets absent values through).
  Plate: z.string().min(1).max(10).superRefine(zodRule(plate)),
  OwnerName: optionalText(50),
  Phone: optionalText(11).superRefine(zodRule(phone)),
  /**
   * The card holder and card of the access-control module, by id plus the name or number shown; both must
   * be of the vehicle's area.
   */
  CardHolderId: id.nullable().optional(),
  CardHolderName: optionalText(50),
  CardId: id.nullable().optional(),
  CardNumber: optionalText(10).superRefine(zodRule(cardNumber)),
  Remark: optionalText(200),
};

/** Vehicles by plate, linked to card holders or cards; the everyday desk work of both codes. */
export const VehicleApi = resourceApi({
  name: 'Vehicle',
  tag: GARAGE_TAG,
  area: true,
  read: BICYCLE_ANY,
  write: BICYCLE_ANY,
  item: vehicleItem,
  filters: {
    Keyword: filterSchema.text(),
    Plate: filterSchema.text(),
    CardHolderId: filterSchema.id(),
    CardId: filterSchema.id(),
    Disabled: filterSchema.flag(),
  },
  sorts: ['Plate', 'CreatedAt'],
  create: z.strictObject(fields),
  update: z.strictObject({ Id: id, ...fields }),
  remove: true,
  status: true,
});
