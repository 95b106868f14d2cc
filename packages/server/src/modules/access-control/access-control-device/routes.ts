import { AccessControlDeviceApi, disabledFlag } from '@gatehouse/shared';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { deviceModelColumns, deviceQuery, deviceSortColumns, toDeviceItem } from './items.ts';
import { asKnown, deviceChanges, setControllerTime, syncControllerNow } from './service.ts';

const api = AccessControlDeviceApi;

/**
 * Device management (AccessControl/Admin): the area's controllers, an edit of what describes them on site,
 * enabling and disabling, and the commands the WG gateway carries to them.
 */
export const accessControlDeviceRoutes = [
  ...implementResource(api, {
    table: 'AccessControlDevice',
    query: deviceQuery,
    toItem: toDeviceItem,
    enrich: asKnown,
    where: {
      Keyword: match.keyword([
        'AccessControlDevice.Name',
        'AccessControlDevice.SerialNumber',
        'AccessControlDevice.Location',
        'AccessControlDevice.Ip',
      ]),
      Protocol: match.equals('AccessControlDevice.Protocol'),
      Type: match.equals('AccessControlDevice.Type'),
      Disabled: match.flag('AccessControlDevice.Disabled'),
    },
    sorts: deviceSortColumns,
    timestamps: true,
    unique: [{ fields: ['Name'], key: 'error.nameTaken' }],
    update: { values: deviceChanges },
    status: {},
    export: {
      titleKey: 'accessControl.title.deviceManagement',
      columns: [
        ...exportColumns('accessControl.field', {
          Name: { header: 'DeviceName', width: 20 },
          SerialNumber: 16,
          Ip: 'text',
          Port: 'number',
        }),
        ...deviceModelColumns,
        ...exportColumns('accessControl.field', {
          Location: 24,
          ChannelCount: 'number',
          Disabled: { header: 'Status', enum: disabledFlag },
        }),
      ],
    },
  }),
  route(api.setTime, ({ body }, ctx) => setControllerTime(ctx, body.Id)),
  route(api.syncNow, ({ body }, ctx) => syncControllerNow(ctx, body.Id)),
];
