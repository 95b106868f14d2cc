import { z } from 'zod';
import { changeType } from '../../enums/access-control.ts';
import { resourceApi } from '../operation.ts';
import { ACCESS_CONTROL_ANY } from '../permissions.ts';
import { filterSchema } from '../wire.ts';
import { HOLDER_FIELDS } from './card-user.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';

/** Change records and renewal records of card holders: read-only lists with exports, newest first. */
export const holderFieldChange = z.object({
  Field: z.enum(HOLDER_FIELDS),
  Before: z.string().nullable(),
  After: z.string().nullable(),
});
export type HolderFieldChange = z.output<typeof holderFieldChange>;

/** A ChangeRecord row, as GET /api/ChangeRecord lists it and GET /api/ChangeRecord/{Id} returns it. */
export const changeRecordItem = z.object({
  Id: z.number(),
  CardUserId: z.number(),
  HolderName: z.string(),
  ChangeType: z.number(),
  /** Changed fields with display values (labels: accessControl.field.<Field>). */
  Changes: z.array(holderFieldChange),
  OperatorName: z.string(),
  At: z.string(),
});
export type ChangeRecordItem = z.output<typeof changeRecordItem>;

/** A RenewalRecord row, as GET /api/RenewalRecord lists it and GET /api/RenewalRecord/{Id} returns it. */
export const renewalRecordItem = z.object({
  Id: z.number(),
  CardUserId: z.number(),
  HolderName: z.string(),
  OldValidTo: z.string(),
  NewValidTo: z.string(),
  Remark: z.string().nullable(),
  OperatorName: z.string(),
  At: z.string(),
});
export type RenewalRecordItem = z.output<typeof renewalRecordItem>;

const records = {
  tag: ACCESS_CONTROL_TAG,
  area: true,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ANY,
  sorts: ['At'],
  timeRange: true,
} as const;

/** What a holder's change was (added, modified, disabled, enabled, extended), field by field. */
export const ChangeRecordApi = resourceApi({
  ...records,
  name: 'ChangeRecord',
  item: changeRecordItem,
  filters: {
    ChangeType: filterSchema.oneOf(changeType),
    CardUserId: filterSchema.id(),
    /** Holder or operator name. */
    Keyword: filterSchema.text(),
  },
});

/** Every extension of a holder's validity: the old and new end, who, when and why. */
export const RenewalRecordApi = resourceApi({
  ...records,
  name: 'RenewalRecord',
  item: renewalRecordItem,
  filters: {
    CardUserId: filterSchema.id(),
    /** Holder name, operator name or remark. */
    Keyword: filterSchema.text(),
  },
});
