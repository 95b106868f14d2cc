import { z } from 'zod';
import { parseCustom } from '../../utils/index.ts';
import { commaIds, zodRule } from '../../validators/index.ts';
import { operation, peopleOnly } from '../operation.ts';
import { AREA_MANAGERS } from '../permissions.ts';
import { id, idParams, idText, pageOf, paging, queryBool } from '../wire.ts';

export const areaInfoDetail = z.object({ Id: z.number(), Name: z.string(), Custom: z.string().nullable() });
export type AreaInfoDetail = z.output<typeof areaInfoDetail>;

/** An area as the area list returns it. */
export const areaInfoItem = areaInfoDetail.extend({
  Disabled: z.boolean(),
  UserCount: z.number(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type AreaInfoItem = z.output<typeof areaInfoItem>;

/** A user authorised to operate an area. */
export const areaUser = z.object({ Id: z.number(), UserName: z.string(), Name: z.string() });
export type AreaUser = z.output<typeof areaUser>;

/** Custom is kept as text but must be a JSON object (the client parses it with the same rule). */
const customJson = z
  .string()
  .max(20_000)
  .nullable()
  .superRefine((value, ctx) => {
    if (value !== null && value.trim() !== '' && parseCustom(value) === null)
      ctx.addIssue({ code: 'custom', message: 'validation.json' });
  })
  .transform((value) => (value === null || value.trim() === '' ? null : value));

const areaName = z.string().trim().min(1).max(50);
const TAG = 'AreaInfo';

const areaOperations = {
  name: 'AreaInfo',
  list: operation({
    method: 'GET',
    path: '/api/AreaInfo',
    summary: 'Areas the caller manages (all areas for admins)',
    tag: TAG,
    access: AREA_MANAGERS,
    query: z.object({
      ...paging,
      Name: z.string().trim().max(50).optional(),
      Disabled: queryBool.optional(),
    }),
    reply: pageOf(areaInfoItem),
  }),
  hubUrl: operation({
    method: 'GET',
    path: '/api/AreaInfo/GetHubUrl',
    summary: "Relative WebSocket address of the area's live-event hub, with a one-time ticket (30 s)",
    tag: TAG,
    access: 'authenticated',
    query: z.object({ Id: idText }),
    reply: z.string(),
  }),
  users: operation({
    method: 'GET',
    path: '/api/AreaInfo/Users',
    summary: 'The users authorised to operate an area (for SetAuth)',
    tag: TAG,
    access: AREA_MANAGERS,
    query: z.object({ Id: idText }),
    reply: z.array(areaUser),
  }),
  get: operation({
    method: 'GET',
    path: '/api/AreaInfo/:Id',
    summary: 'Area detail: Id, Name and Custom (a JSON string) of one of the caller’s areas',
    tag: TAG,
    access: 'authenticated',
    params: idParams,
    reply: areaInfoDetail,
  }),
  create: operation({
    method: 'POST',
    path: '/api/AreaInfo',
    summary: 'Create an area',
    tag: TAG,
    access: AREA_MANAGERS,
    body: z.strictObject({ Name: areaName, Custom: customJson.optional() }),
    reply: areaInfoDetail,
  }),
  remove: operation({
    method: 'DELETE',
    path: '/api/AreaInfo',
    summary: 'Delete an area (refused while modules hold data in it)',
    tag: TAG,
    access: AREA_MANAGERS,
    query: z.object({ Id: idText }),
  }),
  setDisabled: operation({
    method: 'POST',
    path: '/api/AreaInfo/DisableAreaInfo',
    summary: 'Disable an area, or enable it again with Disabled=false',
    tag: TAG,
    access: AREA_MANAGERS,
    query: z.object({ Id: idText, Disabled: queryBool.default(true) }),
  }),
  update: operation({
    method: 'POST',
    path: '/api/AreaInfo/UpdateAreaInfo',
    summary: 'Rename an area and optionally replace its Custom JSON',
    tag: TAG,
    access: AREA_MANAGERS,
    body: z.strictObject({ Id: id, Name: areaName, Custom: customJson.optional() }),
    reply: areaInfoDetail,
  }),
  setAuth: operation({
    method: 'POST',
    path: '/api/AreaInfo/SetAuth',
    summary: 'Set the users authorised to operate an area (UserIds comma-separated; empty clears)',
    tag: TAG,
    access: AREA_MANAGERS,
    query: z.object({
      Id: idText,
      UserIds: z.string().trim().max(10_000).superRefine(zodRule(commaIds)).or(z.literal('')).default(''),
    }),
  }),
  setCustom: operation({
    method: 'POST',
    path: '/api/AreaInfo/SetCustom',
    summary: "Set an area's Custom JSON (query Custom; empty clears it)",
    tag: TAG,
    access: AREA_MANAGERS,
    query: z.object({ Id: idText, Custom: customJson.default(null) }),
  }),
};

// An area's name and data: any caller operating it reads them, a key too. The rest decides who operates
// which area, for people: a key's areas are fixed when it is made.
export const AreaInfoApi = peopleOnly(areaOperations, ['get']);
