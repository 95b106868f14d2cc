import { doorCount } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { rowMapper } from '../../../platform/resource.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the resource helper's query type */

/** A controller as both device screens show it. */
export const deviceItem = z.object({
  Id: z.number(),
  AreaId: z.number().nullable(),
  AreaName: z.string().nullable(),
  SerialNumber: z.string(),
  Name: z.string(),
  Protocol: z.number(),
  Type: z.number(),
  /** Doors of the type (1, 2 or 4; 4 for an unspecified type): the channel form's door-number limit. */
  DoorCount: z.number(),
  Ip: z.string().nullable(),
  Port: z.number().nullable(),
  Location: z.string().nullable(),
  Remark: z.string().nullable(),
  Disabled: z.boolean(),
  ChannelCount: z.number(),
  AssignedAt: z.string().nullable(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type DeviceItem = z.infer<typeof deviceItem>;

export function deviceQuery(db: Kysely<any>) {
  return db
    .selectFrom('AccessControlDevice')
    .leftJoin('AreaInfo', 'AreaInfo.Id', 'AccessControlDevice.AreaId')
    .select((eb) => [
      'AccessControlDevice.Id',
      'AccessControlDevice.AreaId',
      'AreaInfo.Name as AreaName',
      'AccessControlDevice.SerialNumber',
      'AccessControlDevice.Name',
      'AccessControlDevice.Protocol',
      'AccessControlDevice.Type',
      'AccessControlDevice.Ip',
      'AccessControlDevice.Port',
      'AccessControlDevice.Location',
      'AccessControlDevice.Remark',
      'AccessControlDevice.Disabled',
      'AccessControlDevice.AssignedAt',
      'AccessControlDevice.CreatedAt',
      'AccessControlDevice.UpdatedAt',
      eb
        .selectFrom('AccessControlChannel')
        .select((e) => e.fn.countAll().as('n'))
        .whereRef('AccessControlChannel.DeviceId', '=', 'AccessControlDevice.Id')
        .as('ChannelCount'),
    ]);
}

const mapDevice = rowMapper<DeviceItem>({ instants: ['AssignedAt', 'CreatedAt', 'UpdatedAt'] });

export function toDeviceItem(row: Record<string, any>): DeviceItem {
  const item = mapDevice(row);
  return {
    ...item,
    DoorCount: doorCount(item.Type),
    ChannelCount: Number(row.ChannelCount ?? 0),
    Port: row.Port === null ? null : Number(row.Port),
  };
}

export const deviceSorts = {
  Name: 'AccessControlDevice.Name',
  Id: 'AccessControlDevice.Id',
  SerialNumber: 'AccessControlDevice.SerialNumber',
  CreatedAt: 'AccessControlDevice.CreatedAt',
};
