import { randomBytes } from 'node:crypto';
import { BICYCLE_ADMIN, BICYCLE_ANY } from '@gatehouse/shared';
import { z } from 'zod';
import { audit } from '../../../platform/audit.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { defineRoute } from '../../../platform/route.ts';
import { id } from '../../../platform/schemas.ts';
import { chargerGateway, type ChargerCommand, type CommandAnswer, type HostTarget } from '../gateway.ts';
import { LIVE_LINK_SYSTEM_TYPE } from '../liveness.ts';

/**
 * Operator commands to charging hosts over their device link (docs/chargers.md, "Commands"): start a session
 * for a card from the socket grid, restart a host, set a host's OCPP password. Each is audited with the
 * operator and its device answer; a host that is offline, refuses or does not answer gives a translated 409
 * and nothing else changes. (Enabling or disabling a socket sends ChangeAvailability from SetStatus.)
 */

async function hostOf(ctx: AreaContext, hostId: number): Promise<HostTarget & { Name: string }> {
  const host = await ctx.db.kysely
    .selectFrom('ChargeHost')
    .select(['Id', 'Name', 'SerialNumber', 'ChargingSystemType'])
    .where('Id', '=', hostId)
    .where('AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!host) throw notFound();
  return {
    hostId: host.Id,
    serialNumber: host.SerialNumber,
    chargingSystemType: host.ChargingSystemType,
    Name: host.Name,
  };
}

/** Sends a command through the installed gateway ("not sent" without one, or for a host it does not drive). */
export async function sendCommand(
  ctx: AreaContext,
  host: HostTarget,
  command: ChargerCommand,
): Promise<CommandAnswer> {
  const gateway = chargerGateway(ctx.db);
  if (!gateway?.command) return { outcome: 'notSent', reason: 'noDeviceLink' };
  return gateway.command(host, command).catch((): CommandAnswer => ({ outcome: 'timeout' }));
}

/** The audit entry of a command, and the translated 409 unless the device accepted it. */
async function settleCommand(
  ctx: AreaContext,
  entity: 'ChargeHost' | 'ChargeEquipment',
  entityId: number,
  action: string,
  detail: Record<string, unknown>,
  answer: CommandAnswer,
): Promise<{ Status: string }> {
  await audit(ctx, {
    action,
    entity,
    entityId,
    before: null,
    after: { ...detail, Outcome: answer.outcome, ...('status' in answer ? { Status: answer.status } : {}) },
  });
  switch (answer.outcome) {
    case 'accepted':
      return { Status: answer.status };
    case 'refused':
      throw new AppError(409, 'garage.error.commandRefused', { status: answer.status });
    case 'timeout':
      throw new AppError(409, 'garage.error.commandTimeout');
    case 'notSent':
      throw new AppError(
        409,
        answer.reason === 'notConnected' ? 'garage.error.hostOffline' : 'garage.error.hostNotOcpp',
      );
  }
}

/** RemoteStartTransaction on a socket for a card: the charge point then starts the session as if swiped. */
export async function remoteStart(
  ctx: AreaContext,
  socketId: number,
  cardNumber: string,
): Promise<{ Status: string }> {
  const socket = await ctx.db.kysely
    .selectFrom('ChargeEquipment')
    .select(['Id', 'ChargeHostId', 'PortNumber', 'Disabled'])
    .where('Id', '=', socketId)
    .where('AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!socket) throw notFound();
  if (socket.Disabled) throw new AppError(409, 'garage.error.socketDisabled');
  const host = await hostOf(ctx, socket.ChargeHostId);
  const answer = await sendCommand(ctx, host, {
    kind: 'remoteStart',
    portNumber: socket.PortNumber,
    idTag: cardNumber,
  });
  return settleCommand(
    ctx,
    'ChargeEquipment',
    socket.Id,
    'remoteStart',
    { CardNumber: cardNumber, PortNumber: socket.PortNumber },
    answer,
  );
}

/**
 * After an operator enabled or disabled a socket: ChangeAvailability to its charge point (Operative or
 * Inoperative). Gatehouse's decision stands whatever the device answers (a disabled socket shows 12 and takes
 * no session); the answer is audited with the operator, and a host without a live link is not asked.
 */
export async function syncAvailability(ctx: AreaContext, socketId: number, disabled: boolean): Promise<void> {
  const socket = await ctx.db.kysely
    .selectFrom('ChargeEquipment')
    .select(['Id', 'ChargeHostId', 'PortNumber'])
    .where('Id', '=', socketId)
    .where('AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!socket) return;
  const host = await hostOf(ctx, socket.ChargeHostId);
  if (host.chargingSystemType !== LIVE_LINK_SYSTEM_TYPE) return;
  const answer = await sendCommand(ctx, host, {
    kind: 'availability',
    portNumber: socket.PortNumber,
    operative: !disabled,
  });
  await audit(ctx, {
    action: 'changeAvailability',
    entity: 'ChargeEquipment',
    entityId: socket.Id,
    before: null,
    after: {
      Operative: !disabled,
      Outcome: answer.outcome,
      ...('status' in answer ? { Status: answer.status } : {}),
      ...('reason' in answer ? { Reason: answer.reason } : {}),
    },
  });
}

export async function resetHost(
  ctx: AreaContext,
  hostId: number,
  hard: boolean,
): Promise<{ Status: string }> {
  const host = await hostOf(ctx, hostId);
  const answer = await sendCommand(ctx, host, { kind: 'reset', hard });
  return settleCommand(ctx, 'ChargeHost', hostId, 'reset', { Type: hard ? 'Hard' : 'Soft' }, answer);
}

/**
 * A new OCPP password for a charging-API host: 40 hexadecimal digits (an AuthorizationKey every charger takes),
 * stored hashed, returned once in this reply and never again. The audit entry says it changed, not what it is.
 */
export async function newOcppPassword(ctx: AreaContext, hostId: number): Promise<{ Password: string }> {
  const host = await hostOf(ctx, hostId);
  if (host.chargingSystemType !== LIVE_LINK_SYSTEM_TYPE) throw new AppError(409, 'garage.error.hostNotOcpp');
  const gateway = chargerGateway(ctx.db);
  if (!gateway?.setPassword) throw new AppError(409, 'garage.error.hostNotOcpp');
  const password = randomBytes(20).toString('hex');
  await gateway.setPassword(hostId, password);
  await audit(ctx, {
    action: 'setOcppPassword',
    entity: 'ChargeHost',
    entityId: hostId,
    before: null,
    after: { OcppPasswordChanged: true },
  });
  return { Password: password };
}

const commandReply = z.object({ Status: z.string() });

export const chargerCommandRoutes = [
  defineRoute({
    method: 'POST',
    url: '/api/ChargeEquipment/RemoteStart',
    summary:
      'Start a session on a socket for a card (OCPP RemoteStartTransaction); 409 when the host is offline or the charger refuses',
    tag: 'Garage',
    access: BICYCLE_ANY,
    area: true,
    body: z.strictObject({ ChargeEquipmentId: id, CardNumber: z.string().trim().min(1).max(20) }),
    response: commandReply,
    handler: ({ body }, ctx) => remoteStart(ctx, body.ChargeEquipmentId, body.CardNumber),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/ChargeHost/Reset',
    summary: 'Restart a charging host (OCPP Reset, Soft unless Hard); 409 when offline or refused',
    tag: 'Garage',
    access: BICYCLE_ADMIN,
    area: true,
    body: z.strictObject({ Id: id, Hard: z.boolean().optional() }),
    response: commandReply,
    handler: ({ body }, ctx) => resetHost(ctx, body.Id, body.Hard ?? false),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/ChargeHost/SetOcppPassword',
    summary: "Generate a charging-API host's OCPP password, shown once in this reply and stored hashed",
    tag: 'Garage',
    access: BICYCLE_ADMIN,
    area: true,
    body: z.strictObject({ Id: id }),
    response: z.object({ Password: z.string() }),
    handler: ({ body }, ctx) => newOcppPassword(ctx, body.Id),
  }),
];
