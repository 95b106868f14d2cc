import {
  accessControlProtocol,
  accessControlType,
  disabledFlag,
  enumLabel,
  ACCESS_CONTROL_ADMIN,
  ACCESS_CONTROL_ANY,
  accessControlDeviceItem,
} from '@gatehouse/shared';
import { z } from 'zod';
import { filter } from '../../../platform/filters.ts';
import { defineResource } from '../../../platform/resource.ts';
import { id } from '../../../platform/schemas.ts';
import { TAG, optionalText } from '../common.ts';
import { controllerStateAsKnown, gatewayRunning } from './controllers.ts';
import { deviceQuery, deviceSorts, toDeviceItem } from './items.ts';

/**
 * Device management (AccessControl/Admin): the area's controllers. Serial, protocol and type are fixed at
 * registration; an edit changes only what describes the device on site, so channels and records stay.
 * Both access-control codes may read the list (devices are picked in the other screens' filters).
 */
export const accessControlDeviceRoutes = defineResource({
  name: 'AccessControlDevice',
  table: 'AccessControlDevice',
  tag: TAG,
  area: true,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ADMIN,
  item: accessControlDeviceItem,
  query: (db) => deviceQuery(db),
  toItem: toDeviceItem,
  // The stored connection and sync are the gateway's last word: without a gateway running they are not known.
  enrich: async (ctx, items) => {
    const driven = gatewayRunning(ctx.db);
    return items.map((item) => controllerStateAsKnown(driven, item));
  },
  filters: {
    Keyword: filter.keyword([
      'AccessControlDevice.Name',
      'AccessControlDevice.SerialNumber',
      'AccessControlDevice.Location',
      'AccessControlDevice.Ip',
    ]),
    Protocol: filter.oneOf('AccessControlDevice.Protocol', accessControlProtocol),
    Type: filter.oneOf('AccessControlDevice.Type', accessControlType),
    Disabled: filter.flag('AccessControlDevice.Disabled'),
  },
  sorts: deviceSorts,
  timestamps: true,
  unique: [{ fields: ['Name'], key: 'error.nameTaken' }],
  update: {
    body: z.strictObject({
      Id: id,
      Name: z.string().trim().min(1).max(50),
      Ip: z.ipv4().nullable().optional(),
      Port: z.number().int().min(1).max(65535).nullable().optional(),
      Location: optionalText(100),
      Remark: optionalText(200),
    }),
    values: (input) => ({
      Name: input.Name,
      ...(input.Ip !== undefined ? { Ip: input.Ip } : {}),
      ...(input.Port !== undefined ? { Port: input.Port } : {}),
      ...(input.Location !== undefined ? { Location: input.Location } : {}),
      ...(input.Remark !== undefined ? { Remark: input.Remark } : {}),
    }),
  },
  status: {},
  export: {
    titleKey: 'accessControl.title.deviceManagement',
    columns: [
      { key: 'Name', labelKey: 'accessControl.field.DeviceName', width: 20 },
      { key: 'SerialNumber', labelKey: 'accessControl.field.SerialNumber', width: 16 },
      { key: 'Ip', labelKey: 'accessControl.field.Ip' },
      { key: 'Port', labelKey: 'accessControl.field.Port', kind: 'number' },
      {
        key: 'Protocol',
        labelKey: 'accessControl.field.Protocol',
        label: (v, lang) => enumLabel(lang, accessControlProtocol, v),
      },
      {
        key: 'Type',
        labelKey: 'accessControl.field.Type',
        label: (v, lang) => enumLabel(lang, accessControlType, v),
      },
      { key: 'Location', labelKey: 'accessControl.field.Location', width: 24 },
      { key: 'ChannelCount', labelKey: 'accessControl.field.ChannelCount', kind: 'number' },
      {
        key: 'Disabled',
        labelKey: 'accessControl.field.Status',
        label: (v, lang) => enumLabel(lang, disabledFlag, v),
      },
    ],
  },
});
