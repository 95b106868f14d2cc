import {
  commaDigits,
  parseCustom,
  zodRule,
  AREA_MANAGERS,
  areaInfoDetail,
  areaInfoItem,
} from '@gatehouse/shared';
import { z } from 'zod';
import { changesGrants, defineRoute } from '../../../platform/route.ts';
import { id, idParams, pageOf, paging, queryBool } from '../../../platform/schemas.ts';
import {
  areaDetail,
  areaUsers,
  createArea,
  deleteArea,
  hubUrl,
  listAreas,
  setAreaCustom,
  setAreaDisabled,
  setAreaUsers,
  updateArea,
} from './service.ts';

const tag = 'AreaInfo';

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

export const areaInfoRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/AreaInfo',
    summary: 'Areas the caller manages (all areas for admins)',
    tag,
    access: AREA_MANAGERS,
    query: z.object({
      ...paging,
      Name: z.string().trim().max(50).optional(),
      Disabled: queryBool.optional(),
    }),
    response: pageOf(areaInfoItem),
    handler: ({ query }, ctx) => listAreas(ctx, query),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/AreaInfo/GetHubUrl',
    summary: "Relative WebSocket address of the area's live-event hub, with a one-time ticket (30 s)",
    tag,
    access: 'authenticated',
    query: z.object({ Id: id }),
    response: z.string(),
    handler: async ({ query }, ctx) => hubUrl(ctx, query.Id),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/AreaInfo/Users',
    summary: 'The users authorised to operate an area (for SetAuth)',
    tag,
    access: AREA_MANAGERS,
    query: z.object({ Id: id }),
    response: z.array(z.object({ Id: z.number(), UserName: z.string(), Name: z.string() })),
    handler: ({ query }, ctx) => areaUsers(ctx, query.Id),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/AreaInfo/:Id',
    summary: 'Area detail: Id, Name and Custom (a JSON string) of one of the caller’s areas',
    tag,
    access: 'authenticated',
    params: idParams,
    response: areaInfoDetail,
    handler: ({ params }, ctx) => areaDetail(ctx, params.Id),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/AreaInfo',
    summary: 'Create an area',
    tag,
    access: AREA_MANAGERS,
    body: z.strictObject({ Name: areaName, Custom: customJson.optional() }),
    response: areaInfoDetail,
    handler: ({ body }, ctx) => changesGrants(ctx, createArea(ctx, body)),
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/AreaInfo',
    summary: 'Delete an area (refused while modules hold data in it)',
    tag,
    access: AREA_MANAGERS,
    query: z.object({ Id: id }),
    async handler({ query }, ctx) {
      await changesGrants(ctx, deleteArea(ctx, query.Id));
      return null;
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/AreaInfo/DisableAreaInfo',
    summary: 'Disable an area, or enable it again with Disabled=false',
    tag,
    access: AREA_MANAGERS,
    query: z.object({ Id: id, Disabled: queryBool.default(true) }),
    async handler({ query }, ctx) {
      await changesGrants(ctx, setAreaDisabled(ctx, query.Id, query.Disabled));
      return null;
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/AreaInfo/UpdateAreaInfo',
    summary: 'Rename an area and optionally replace its Custom JSON',
    tag,
    access: AREA_MANAGERS,
    body: z.strictObject({ Id: id, Name: areaName, Custom: customJson.optional() }),
    response: areaInfoDetail,
    handler: ({ body }, ctx) => changesGrants(ctx, updateArea(ctx, body)),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/AreaInfo/SetAuth',
    summary: 'Set the users authorised to operate an area (UserIds comma-separated; empty clears)',
    tag,
    access: AREA_MANAGERS,
    query: z.object({
      Id: id,
      UserIds: z.string().trim().max(10_000).superRefine(zodRule(commaDigits)).or(z.literal('')).default(''),
    }),
    async handler({ query }, ctx) {
      const ids = query.UserIds ? query.UserIds.split(',').map(Number) : [];
      await changesGrants(ctx, setAreaUsers(ctx, query.Id, ids));
      return null;
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/AreaInfo/SetCustom',
    summary: "Set an area's Custom JSON (query Custom; empty clears it)",
    tag,
    access: AREA_MANAGERS,
    query: z.object({ Id: id, Custom: customJson.default(null) }),
    async handler({ query }, ctx) {
      await changesGrants(ctx, setAreaCustom(ctx, query.Id, query.Custom));
      return null;
    },
  }),
];
