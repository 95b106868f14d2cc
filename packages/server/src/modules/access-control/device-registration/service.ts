import {
  PROTOCOL_WG,
  parseSerialNumbers,
  wgTypeFromSerial,
  type AccessControlDeviceItem,
  type RegisterDevicesInput,
} from '@gatehouse/shared';
import { audit } from '../../../platform/audit.ts';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { AppError, fieldError, notFound } from '../../../platform/errors.ts';
import type { UserContext } from '../../../platform/context.ts';
import { createDefaultChannels, deleteDeviceChannels } from '../access-control-channel/defaults.ts';
import { deviceQuery, toDeviceItem } from '../access-control-device/items.ts';
import { openAuthorizations } from '../card-user-link-channel/lifecycle.ts';
import { assertOwnArea, type Trx } from '../common.ts';
import { inPoolOrOwnAreas } from '../pool.ts';

/**
 * Device registration (SuperAdmin): controllers enter a pool by serial number and are assigned to one of
 * the caller's areas. The pool screen shows unassigned devices and those of the caller's own areas.
 */

/** The pool's list: devices still in the pool and those of the caller's own areas. */
export const poolDeviceQuery = (db: Trx, ctx: UserContext) =>
  deviceQuery(db).where(inPoolOrOwnAreas(ctx, 'AccessControlDevice.AreaId'));

async function poolDevice(ctx: UserContext, trx: Trx, deviceId: number) {
  const device = await trx
    .selectFrom('AccessControlDevice')
    .selectAll()
    .where('Id', '=', deviceId)
    .executeTakeFirst();
  if (!device || (device.AreaId !== null && !ctx.user.areaIds.has(device.AreaId))) throw notFound();
  return device;
}

/** Registers one or many controllers (all or none); with AreaId they join that area at once. */
export async function registerDevices(ctx: UserContext, input: RegisterDevicesInput): Promise<number[]> {
  const parsed = parseSerialNumbers(input.SerialNumbers);
  if (!parsed.ok) throw fieldError('SerialNumbers', parsed.error.key, parsed.error.params);
  const devices = parsed.value.map((serial) => {
    if (input.Protocol !== PROTOCOL_WG) return { serial, type: input.Type ?? 0 };
    const type = wgTypeFromSerial(serial);
    if (type === null) throw fieldError('SerialNumbers', 'accessControl.error.wgSerialType', { serial });
    return { serial, type };
  });
  if (input.AreaId !== undefined) assertOwnArea(ctx, input.AreaId);
  const now = ctx.clock.now();
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const taken = await trx
      .selectFrom('AccessControlDevice')
      .select('SerialNumber')
      .where(
        'SerialNumber',
        'in',
        devices.map((d) => d.serial),
      )
      .orderBy('SerialNumber')
      .execute();
    if (taken.length)
      throw new AppError(409, 'accessControl.error.serialTaken', {
        serial: taken.map((t) => t.SerialNumber).join(', '),
      });
    const ids: number[] = [];
    for (const d of devices) {
      const row = await trx
        .insertInto('AccessControlDevice')
        .values({
          AreaId: input.AreaId ?? null,
          SerialNumber: d.serial,
          Name: d.serial,
          Protocol: input.Protocol,
          Type: d.type,
          Ip: null,
          Port: null,
          Location: null,
          Remark: input.Remark ?? null,
          AssignedAt: input.AreaId === undefined ? null : now,
          CreatedAt: now,
          UpdatedAt: now,
        })
        .returning('Id')
        .executeTakeFirstOrThrow();
      ids.push(row.Id);
      if (input.AreaId !== undefined)
        await createDefaultChannels(trx, { Id: row.Id, Type: d.type }, input.AreaId, ctx.lang, now);
    }
    await audit(
      ctx,
      {
        action: 'register',
        entity: 'AccessControlDevice',
        entityId: ids.join(','),
        after: { ...input, Ids: ids },
      },
      trx,
    );
    return ids;
  });
}

/** Pool devices join one of the caller's areas, each with its default channels. */
export async function assignDevices(ctx: UserContext, ids: number[], areaId: number): Promise<void> {
  assertOwnArea(ctx, areaId);
  const now = ctx.clock.now();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    for (const deviceId of new Set(ids)) {
      const device = await poolDevice(ctx, trx, deviceId);
      if (device.AreaId !== null)
        throw new AppError(409, 'accessControl.error.deviceAssigned', { serial: device.SerialNumber });
      await trx
        .updateTable('AccessControlDevice')
        .set({ AreaId: areaId, AssignedAt: now, UpdatedAt: now })
        .where('Id', '=', deviceId)
        .execute();
      await createDefaultChannels(trx, device, areaId, ctx.lang, now);
      await audit(
        ctx,
        {
          action: 'assign',
          entity: 'AccessControlDevice',
          entityId: deviceId,
          before: device,
          after: { AreaId: areaId },
        },
        trx,
      );
    }
  });
}

/**
 * Devices return to the pool. Refused while any authorisation on them is not confirmed deleted; their
 * channels (the doors of that area) leave with them, while swipe records and fault reports keep their copies.
 */
export async function unassignDevices(ctx: UserContext, ids: number[]): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    for (const deviceId of new Set(ids)) {
      const device = await poolDevice(ctx, trx, deviceId);
      if (device.AreaId === null) continue;
      const open = await openAuthorizations(trx, { deviceId });
      if (open > 0)
        throw new AppError(409, 'accessControl.error.deviceHasAuthorizations', {
          serial: device.SerialNumber,
          count: open,
        });
      await deleteDeviceChannels(trx, deviceId);
      await trx
        .updateTable('AccessControlDevice')
        .set({ AreaId: null, AssignedAt: null, UpdatedAt: now })
        .where('Id', '=', deviceId)
        .execute();
      await audit(
        ctx,
        {
          action: 'unassign',
          entity: 'AccessControlDevice',
          entityId: deviceId,
          before: device,
          after: { AreaId: null },
        },
        trx,
      );
    }
  });
}

/** Registers controllers and answers them as the list shows them. */
export async function registerDevicesReply(
  ctx: UserContext,
  input: RegisterDevicesInput,
): Promise<AccessControlDeviceItem[]> {
  const ids = await registerDevices(ctx, input);
  const rows = await deviceQuery(ctx.db.kysely)
    .where('AccessControlDevice.Id', 'in', ids)
    .orderBy('AccessControlDevice.Id')
    .execute();
  return rows.map(toDeviceItem);
}

/** A device leaves the registry only from the pool, and only without history (swipes, fault reports). */
export async function assertPoolDeviceRemovable(
  ctx: UserContext,
  row: Record<string, unknown>,
  trx: Trx,
): Promise<void> {
  if (row.AreaId !== null)
    throw new AppError(409, 'accessControl.error.deviceAssigned', { serial: row.SerialNumber as string });
  await assertNoDependents('AccessControlDevice', trx, row.Id as number, ctx.lang);
}
