import { AccessControlChannelApi, cardReaderType } from '@gatehouse/shared';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { doorColumns } from '../common.ts';
import {
  afterChannelChanged,
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
    update: { values: changedChannel, after: afterChannelChanged },
    remove: { check: (_ctx, row, trx) => assertChannelRemovable(trx, row.Id as number) },
    export: {
      titleKey: 'accessControl.title.channelManagement',
      columns: [
        ...exportColumns('accessControl.field', {
          DeviceName: 20,
          SerialNumber: 16,
          Name: { header: 'ChannelName', width: 20 },
        }),
        ...doorColumns(),
        ...exportColumns('accessControl.field', {
          ReaderType: { enum: cardReaderType },
          AuthorizationCount: 'number',
        }),
      ],
    },
  }),
  route(api.openDoor, ({ body }, ctx) => openDoor(ctx, body.Id)),
  route(api.setDoorMode, ({ body }, ctx) => setDoorMode(ctx, body)),
];
