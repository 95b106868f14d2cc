import { DeviceRegistrationApi } from '@gatehouse/shared';
import type { UserContext } from '../../../platform/context.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { deviceModelColumns, toDeviceItem } from '../access-control-device/items.ts';
import { isSet } from '../common.ts';
import {
  assertPoolDeviceRemovable,
  assignDevices,
  poolDeviceQuery,
  registerDevicesReply,
  unassignDevices,
} from './service.ts';

const api = DeviceRegistrationApi;

/** Device registration (SuperAdmin): the device pool, registering, assigning to an area and taking back. */
export const deviceRegistrationRoutes = [
  ...implementResource<typeof api, UserContext>(api, {
    table: 'AccessControlDevice',
    query: poolDeviceQuery,
    toItem: toDeviceItem,
    where: {
      Keyword: match.keyword(['AccessControlDevice.SerialNumber', 'AccessControlDevice.Name']),
      Protocol: match.equals('AccessControlDevice.Protocol'),
      Type: match.equals('AccessControlDevice.Type'),
      AreaId: match.equals('AccessControlDevice.AreaId'),
      Assigned: isSet('AccessControlDevice.AreaId'),
    },
    sorts: {
      CreatedAt: 'AccessControlDevice.CreatedAt',
      SerialNumber: 'AccessControlDevice.SerialNumber',
      Name: 'AccessControlDevice.Name',
      Id: 'AccessControlDevice.Id',
    },
    defaultOrder: 'desc',
    remove: { check: assertPoolDeviceRemovable },
    export: {
      titleKey: 'accessControl.title.deviceRegistration',
      columns: [
        { key: 'SerialNumber', labelKey: 'accessControl.field.SerialNumber', width: 16 },
        ...deviceModelColumns,
        { key: 'AreaName', labelKey: 'accessControl.field.Area', width: 20 },
        { key: 'Name', labelKey: 'accessControl.field.DeviceName', width: 20 },
        { key: 'ChannelCount', labelKey: 'accessControl.field.ChannelCount', kind: 'number' },
        { key: 'AssignedAt', labelKey: 'accessControl.field.AssignedAt', kind: 'instant' },
        { key: 'CreatedAt', labelKey: 'accessControl.field.CreatedAt', kind: 'instant' },
      ],
    },
  }),
  route(api.register, ({ body }, ctx) => registerDevicesReply(ctx, body)),
  route(api.assign, ({ body }, ctx) => assignDevices(ctx, body.Ids, body.AreaId)),
  route(api.unassign, ({ body }, ctx) => unassignDevices(ctx, body.Ids)),
];
