import {
  cardReaderType,
  doorCount,
  doorDirection,
  doorNumber,
  doorNumberAllowed,
  enumLabel,
  ACCESS_CONTROL_ADMIN,
  ACCESS_CONTROL_ANY,
  accessControlChannelItem,
} from '@gatehouse/shared';
import { z } from 'zod';
import { AppError, fieldError } from '../../../platform/errors.ts';
import { filter } from '../../../platform/filters.ts';
import { defineResource, rowMapper } from '../../../platform/resource.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { enumNumber, id } from '../../../platform/schemas.ts';
import { ISSUE, markChannelChanged, openAuthorizations } from '../card-user-link-channel/lifecycle.ts';
import { TAG, optionalText, type Trx } from '../common.ts';

type Item = z.infer<typeof accessControlChannelItem>;

const fields = {
  DoorNumber: enumNumber(doorNumber),
  Name: z.string().trim().min(1).max(50),
  Direction: enumNumber(doorDirection),
  ReaderType: enumNumber(cardReaderType).optional(),
  Remark: optionalText(200),
};

async function deviceOf(ctx: AreaContext, trx: Trx, deviceId: number) {
  const device = await trx
    .selectFrom('AccessControlDevice')
    .select(['Id', 'Type'])
    .where('Id', '=', deviceId)
    .where('AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!device) throw fieldError('DeviceId', 'accessControl.error.deviceMissing');
  return device;
}

async function checkDoor(
  trx: Trx,
  device: { Id: number; Type: number },
  door: number,
  direction: number,
  exceptId?: number,
) {
  if (!doorNumberAllowed(device.Type, door))
    throw fieldError('DoorNumber', 'accessControl.error.doorBeyondType', { max: doorCount(device.Type) });
  if (door === 0) return;
  let query = trx
    .selectFrom('AccessControlChannel')
    .select('Id')
    .where('DeviceId', '=', device.Id)
    .where('DoorNumber', '=', door)
    .where('Direction', '=', direction);
  if (exceptId !== undefined) query = query.where('Id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw new AppError(409, 'accessControl.error.channelTaken', { door });
}

export const accessControlChannelRoutes = defineResource({
  name: 'AccessControlChannel',
  table: 'AccessControlChannel',
  tag: TAG,
  area: true,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ADMIN,
  item: accessControlChannelItem,
  query: (db) =>
    db
      .selectFrom('AccessControlChannel')
      .innerJoin('AccessControlDevice', 'AccessControlDevice.Id', 'AccessControlChannel.DeviceId')
      .select((eb) => [
        'AccessControlChannel.Id',
        'AccessControlChannel.DeviceId',
        'AccessControlDevice.Name as DeviceName',
        'AccessControlDevice.SerialNumber',
        'AccessControlDevice.Type as DeviceType',
        'AccessControlChannel.DoorNumber',
        'AccessControlChannel.Name',
        'AccessControlChannel.Direction',
        'AccessControlChannel.ReaderType',
        'AccessControlChannel.Remark',
        'AccessControlChannel.CreatedAt',
        'AccessControlChannel.UpdatedAt',
        eb
          .selectFrom('CardUserLinkChannel')
          .select((e) => e.fn.countAll().as('n'))
          .whereRef('CardUserLinkChannel.ChannelId', '=', 'AccessControlChannel.Id')
          .where('CardUserLinkChannel.IssueStatus', '!=', ISSUE.deletionSucceeded)
          .as('AuthorizationCount'),
      ]),
  toItem: (row) => ({
    ...rowMapper<Item>({})(row),
    AuthorizationCount: Number(row.AuthorizationCount ?? 0),
  }),
  filters: {
    DeviceId: filter.id('AccessControlChannel.DeviceId'),
    Keyword: filter.keyword(['AccessControlChannel.Name', 'AccessControlDevice.Name']),
    DoorNumber: filter.oneOf('AccessControlChannel.DoorNumber', doorNumber),
    Direction: filter.oneOf('AccessControlChannel.Direction', doorDirection),
    ReaderType: filter.oneOf('AccessControlChannel.ReaderType', cardReaderType),
  },
  sorts: {
    Device: 'AccessControlDevice.Name',
    Name: 'AccessControlChannel.Name',
    DoorNumber: 'AccessControlChannel.DoorNumber',
    CreatedAt: 'AccessControlChannel.CreatedAt',
  },
  timestamps: true,
  unique: [{ fields: ['DeviceId', 'Name'], key: 'error.nameTaken' }],
  create: {
    body: z.strictObject({ DeviceId: id, ...fields }),
    async values(input, ctx, trx) {
      const device = await deviceOf(ctx, trx, input.DeviceId);
      await checkDoor(trx, device, input.DoorNumber, input.Direction);
      return {
        DeviceId: device.Id,
        DoorNumber: input.DoorNumber,
        Name: input.Name,
        Direction: input.Direction,
        ReaderType: input.ReaderType ?? 0,
        Remark: input.Remark ?? null,
      };
    },
  },
  update: {
    body: z.strictObject({ Id: id, ...fields }),
    /** A new door or direction changes what the controller must know about every live authorisation. */
    async values(input, ctx, trx, existing) {
      const device = await deviceOf(ctx, trx, existing.DeviceId as number);
      await checkDoor(trx, device, input.DoorNumber, input.Direction, input.Id);
      if (input.DoorNumber !== existing.DoorNumber || input.Direction !== existing.Direction)
        await markChannelChanged(trx, input.Id, ctx.clock.now());
      return {
        DoorNumber: input.DoorNumber,
        Name: input.Name,
        Direction: input.Direction,
        ...(input.ReaderType !== undefined ? { ReaderType: input.ReaderType } : {}),
        ...(input.Remark !== undefined ? { Remark: input.Remark } : {}),
      };
    },
  },
  remove: {
    async check(_ctx, row, trx) {
      const open = await openAuthorizations(trx, { channelId: row.Id as number });
      if (open > 0) throw new AppError(409, 'accessControl.error.channelHasAuthorizations', { count: open });
    },
  },
  export: {
    titleKey: 'accessControl.title.channelManagement',
    columns: [
      { key: 'DeviceName', labelKey: 'accessControl.field.DeviceName', width: 20 },
      { key: 'SerialNumber', labelKey: 'accessControl.field.SerialNumber', width: 16 },
      { key: 'Name', labelKey: 'accessControl.field.ChannelName', width: 20 },
      {
        key: 'DoorNumber',
        labelKey: 'accessControl.field.DoorNumber',
        label: (v, lang) => enumLabel(lang, doorNumber, v),
      },
      {
        key: 'Direction',
        labelKey: 'accessControl.field.Direction',
        label: (v, lang) => enumLabel(lang, doorDirection, v),
      },
      {
        key: 'ReaderType',
        labelKey: 'accessControl.field.ReaderType',
        label: (v, lang) => enumLabel(lang, cardReaderType, v),
      },
      { key: 'AuthorizationCount', labelKey: 'accessControl.field.AuthorizationCount', kind: 'number' },
    ],
  },
});
