import {
  doorCount,
  weekdayMask,
  weekdaysOf,
  type DoorScheduleApi,
  type DoorScheduleItem,
} from '@gatehouse/shared';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { AreaContext } from '../../../platform/context.ts';
import { fieldError } from '../../../platform/errors.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { markRulesChanged } from '../access-control-device/rules.ts';
import { areaDevice } from '../access-control-device/service.ts';
import type { Trx } from '../common.ts';

type CreateBody = z.output<typeof DoorScheduleApi.create.body>;
type UpdateBody = z.output<typeof DoorScheduleApi.update.body>;

/**
 * Door schedules: each is one task of its controller's task list, which the gateway rebuilds whole whenever a
 * schedule of the controller changes (the protocol cannot read tasks back or delete one).
 */
export function scheduleQuery(db: Trx) {
  return db
    .selectFrom('DoorSchedule')
    .innerJoin('AccessControlDevice', 'AccessControlDevice.Id', 'DoorSchedule.DeviceId')
    .select((eb) => [
      'DoorSchedule.Id',
      'DoorSchedule.DeviceId',
      'AccessControlDevice.Name as DeviceName',
      'AccessControlDevice.SerialNumber',
      'DoorSchedule.DoorNumber',
      'DoorSchedule.Action',
      'DoorSchedule.Time',
      'DoorSchedule.Weekdays',
      'DoorSchedule.StartDate',
      'DoorSchedule.EndDate',
      'DoorSchedule.Remark',
      'DoorSchedule.CreatedAt',
      'DoorSchedule.UpdatedAt',
      eb
        .selectFrom('AccessControlChannel as C')
        .select(sql<string>`min("C"."Name")`.as('n'))
        .whereRef('C.DeviceId', '=', 'DoorSchedule.DeviceId')
        .whereRef('C.DoorNumber', '=', 'DoorSchedule.DoorNumber')
        .as('DoorName'),
    ]);
}

const mapSchedule = rowMapper<DoorScheduleItem>({ flags: [] });

export function toScheduleItem(row: Record<string, unknown>): DoorScheduleItem {
  const item = mapSchedule(row);
  return {
    ...item,
    Weekdays: weekdaysOf(Number(row.Weekdays)),
    DoorName: (row.DoorName as string | null) ?? null,
  };
}

/** The door must be a WG controller's of the area, within its model's doors. */
async function checkDoor(ctx: AreaContext, trx: Trx, deviceId: number, door: number) {
  const device = await areaDevice(trx, ctx.areaId, deviceId);
  if (!device) throw fieldError('DeviceId', 'accessControl.error.deviceMissing');
  if (device.Protocol !== 0)
    throw fieldError('DeviceId', 'accessControl.error.notWgDevice', { name: device.Name });
  if (door > doorCount(device.Type))
    throw fieldError('DoorNumber', 'accessControl.error.doorBeyondType', { max: doorCount(device.Type) });
}

function columns(input: CreateBody | UpdateBody) {
  return {
    DoorNumber: input.DoorNumber,
    Action: input.Action,
    Time: input.Time,
    Weekdays: weekdayMask(input.Weekdays),
    StartDate: input.StartDate,
    EndDate: input.EndDate,
    Remark: input.Remark ?? null,
  };
}

export async function newSchedule(input: CreateBody, ctx: AreaContext, trx: Trx) {
  await checkDoor(ctx, trx, input.DeviceId, input.DoorNumber);
  await markRulesChanged(trx, { deviceIds: [input.DeviceId] }, ctx.clock.now());
  return { DeviceId: input.DeviceId, ...columns(input) };
}

export async function changedSchedule(
  input: UpdateBody,
  ctx: AreaContext,
  trx: Trx,
  existing: Record<string, unknown>,
) {
  const deviceId = existing.DeviceId as number;
  await checkDoor(ctx, trx, deviceId, input.DoorNumber);
  await markRulesChanged(trx, { deviceIds: [deviceId] }, ctx.clock.now());
  return columns(input);
}

export async function scheduleRemoved(ctx: AreaContext, trx: Trx, row: Record<string, unknown>) {
  await markRulesChanged(trx, { deviceIds: [row.DeviceId as number] }, ctx.clock.now());
}
