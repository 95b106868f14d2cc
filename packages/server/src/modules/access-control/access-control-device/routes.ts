import { AccessControlDeviceApi, disabledFlag } from '@gatehouse/shared';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { enumColumn } from '../common.ts';
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
        { key: 'Name', labelKey: 'accessControl.field.DeviceName', width: 20 },
        { key: 'SerialNumber', labelKey: 'accessControl.field.SerialNumber', width: 16 },
        { key: 'Ip', labelKey: 'accessControl.field.Ip' },
        { key: 'Port', labelKey: 'accessControl.field.Port', kind: 'number' },
        ...deviceModelColumns,
        { key: 'Location', labelKey: 'accessControl.field.Location', width: 24 },
        { key: 'ChannelCount', labelKey: 'accessControl.field.ChannelCount', kind: 'number' },
        enumColumn('Disabled', 'Status', disabledFlag),
      ],
    },
  }),
  route(api.setTime, ({ body }, ctx) => setControllerTime(ctx, body.Id)),
  route(api.syncNow, ({ body }, ctx) => syncControllerNow(ctx, body.Id)),
];
