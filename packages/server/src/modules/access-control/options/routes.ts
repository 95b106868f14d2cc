import {
  ACCESS_CONTROL_ANY,
  accessControlDeviceOption,
  cardUserOption,
  deviceChannelsOption,
} from '@gatehouse/shared';
import { z } from 'zod';
import { contains } from '../../../platform/filters.ts';
import { defineRoute } from '../../../platform/route.ts';

export const accessControlOptionsRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/Options/AccessControlDevices',
    summary: "The current area's controllers",
    tag: 'Options',
    access: ACCESS_CONTROL_ANY,
    area: true,
    response: z.array(accessControlDeviceOption),
    handler: (_input, ctx) =>
      ctx.db.kysely
        .selectFrom('AccessControlDevice')
        .select(['Id', 'Name', 'SerialNumber', 'Protocol', 'Type'])
        .where('AreaId', '=', ctx.areaId)
        .orderBy('Name')
        .orderBy('Id')
        .execute(),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/Options/AccessControlChannels',
    summary: "The current area's channels grouped by controller (for granting and filters)",
    tag: 'Options',
    access: ACCESS_CONTROL_ANY,
    area: true,
    response: z.array(deviceChannelsOption),
    async handler(_input, ctx) {
      const rows = await ctx.db.kysely
        .selectFrom('AccessControlChannel')
        .innerJoin('AccessControlDevice', 'AccessControlDevice.Id', 'AccessControlChannel.DeviceId')
        .select([
          'AccessControlDevice.Id as DeviceId',
          'AccessControlDevice.Name as DeviceName',
          'AccessControlDevice.Protocol',
          'AccessControlChannel.Id',
          'AccessControlChannel.Name',
          'AccessControlChannel.DoorNumber',
          'AccessControlChannel.Direction',
        ])
        .where('AccessControlChannel.AreaId', '=', ctx.areaId)
        .orderBy('AccessControlDevice.Name')
        .orderBy('AccessControlDevice.Id')
        .orderBy('AccessControlChannel.DoorNumber')
        .orderBy('AccessControlChannel.Direction')
        .orderBy('AccessControlChannel.Id')
        .execute();
      const devices = new Map<number, z.infer<typeof deviceChannelsOption>>();
      for (const r of rows) {
        const device = devices.get(r.DeviceId) ?? {
          DeviceId: r.DeviceId,
          DeviceName: r.DeviceName,
          Protocol: r.Protocol,
          Channels: [],
        };
        device.Channels.push({ Id: r.Id, Name: r.Name, DoorNumber: r.DoorNumber, Direction: r.Direction });
        devices.set(r.DeviceId, device);
      }
      return [...devices.values()];
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/Options/CardUsers',
    summary: 'Card holders of the current area by name, phone or card number (at most 50)',
    tag: 'Options',
    access: ACCESS_CONTROL_ANY,
    area: true,
    query: z.object({ Keyword: z.string().trim().min(1).max(50).optional() }),
    response: z.array(cardUserOption),
    async handler({ query }, ctx) {
      let q = ctx.db.kysely
        .selectFrom('CardUser')
        .select(['CardUser.Id', 'CardUser.Name', 'CardUser.Phone', 'CardUser.Disabled'])
        .where('CardUser.AreaId', '=', ctx.areaId);
      if (query.Keyword) {
        const keyword = query.Keyword;
        q = q.where((eb) =>
          eb.or([
            contains(eb, 'CardUser.Name', keyword),
            contains(eb, 'CardUser.Phone', keyword),
            eb.exists(
              eb
                .selectFrom('Card')
                .select('Card.Id')
                .whereRef('Card.CardUserId', '=', 'CardUser.Id')
                .where((e) => contains(e, 'Card.CardNumber', keyword)),
            ),
          ]),
        );
      }
      const rows = await q.orderBy('CardUser.Name').orderBy('CardUser.Id').limit(50).execute();
      return rows.map((r) => ({ ...r, Disabled: r.Disabled === 1 }));
    },
  }),
];
