import { z } from 'zod';
import { DEVICE_BATCH_MAX } from '../../access-control-rules.ts';
import { accessControlProtocol, accessControlType } from '../../enums/access-control.ts';
import { commaDigits } from '../../validators/rules.ts';
import { zodRule } from '../../validators/adapters.ts';
import { operation, resourceApi } from '../operation.ts';
import { SUPER_ADMIN } from '../permissions.ts';
import { enumNumber, filterSchema, id, optionalText } from '../wire.ts';
import { accessControlDeviceItem } from './access-control-device.ts';
import { ACCESS_CONTROL_TAG, poolMoves } from './common.ts';

export const registerDevicesBody = z.strictObject({
  SerialNumbers: z.string().trim().max(2300).superRefine(zodRule(commaDigits)),
  Protocol: enumNumber(accessControlProtocol),
  Type: enumNumber(accessControlType).optional(),
  AreaId: id.optional(),
  Remark: optionalText(200),
});
export type RegisterDevicesInput = z.output<typeof registerDevicesBody>;

/**
 * Device registration (SuperAdmin): controllers enter a pool by serial number and are assigned to one of
 * the caller's areas. The list shows devices still in the pool and those of the caller's own areas.
 */
export const DeviceRegistrationApi = {
  ...resourceApi({
    name: 'DeviceRegistration',
    tag: ACCESS_CONTROL_TAG,
    area: false,
    read: SUPER_ADMIN,
    write: SUPER_ADMIN,
    item: accessControlDeviceItem,
    filters: {
      Keyword: filterSchema.text(),
      Protocol: filterSchema.oneOf(accessControlProtocol),
      Type: filterSchema.oneOf(accessControlType),
      AreaId: filterSchema.id(),
      Assigned: filterSchema.flag(),
    },
    sorts: ['CreatedAt', 'SerialNumber', 'Name', 'Id'],
    remove: true,
  }),
  /** Its reply is the registered devices. */
  register: operation({
    method: 'POST',
    path: '/api/DeviceRegistration',
    summary:
      'Register controllers by serial number (comma-separated; all or none). WG: the type follows the first digit (1, 2, 4); Other: Type as given',
    tag: ACCESS_CONTROL_TAG,
    access: SUPER_ADMIN,
    body: registerDevicesBody,
    reply: z.array(accessControlDeviceItem),
  }),
  ...poolMoves('DeviceRegistration', DEVICE_BATCH_MAX, {
    assign: "Assign pool devices to one of the caller's areas (default channels are created per door)",
    unassign: 'Return devices to the pool (refused while authorisations on them are not confirmed deleted)',
  }),
};
