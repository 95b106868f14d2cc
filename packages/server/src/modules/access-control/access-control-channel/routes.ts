import { AccessControlChannelApi, cardReaderType } from '@gatehouse/shared';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { doorColumns, enumColumn } from '../common.ts';
import {
  assertChannelRemovable,
  changedChannel,
  channelQuery,
  newChannel,
  openDoor,
  setDoorMode,
  toChannelItem,
} from './service.ts';

const api = AccessControlChannelApi;

/** Channel management (AccessControl/Admin): the readers on the doors of the area's controllers. */
export const accessControlChannelRoutes = [
  ...implementResource(api, {
    table: 'AccessControlChannel',
    query: channelQuery,
    toItem: toChannelItem,
    where: {
      DeviceId: match.equals('AccessControlChannel.DeviceId'),
      Keyword: match.keyword(['AccessControlChannel.Name', 'AccessControlDevice.Name']),
      DoorNumber: match.equals('AccessControlChannel.DoorNumber'),
      Direction: match.equals('AccessControlChannel.Direction'),
      ReaderType: match.equals('AccessControlChannel.ReaderType'),
    },
    sorts: {
      Device: 'AccessControlDevice.Name',
      Name: 'AccessControlChannel.Name',
      DoorNumber: 'AccessControlChannel.DoorNumber',
      CreatedAt: 'AccessControlChannel.CreatedAt',
    },
    timestamps: true,
    unique: [{ fields: ['DeviceId', 'Name'], key: 'error.nameTaken' }],
    create: { values: newChannel },
    update: { values: changedChannel },
    remove: { check: (_ctx, row, trx) => assertChannelRemovable(trx, row.Id as number) },
    export: {
      titleKey: 'accessControl.title.channelManagement',
      columns: [
        { key: 'DeviceName', labelKey: 'accessControl.field.DeviceName', width: 20 },
        { key: 'SerialNumber', labelKey: 'accessControl.field.SerialNumber', width: 16 },
        { key: 'Name', labelKey: 'accessControl.field.ChannelName', width: 20 },
        ...doorColumns(),
        enumColumn('ReaderType', 'ReaderType', cardReaderType),
        { key: 'AuthorizationCount', labelKey: 'accessControl.field.AuthorizationCount', kind: 'number' },
      ],
    },
  }),
  route(api.openDoor, ({ body }, ctx) => openDoor(ctx, body.Id)),
  route(api.setDoorMode, ({ body }, ctx) => setDoorMode(ctx, body)),
];
