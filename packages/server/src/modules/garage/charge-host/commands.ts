import { randomBytes } from 'node:crypto';
import type { ChargerConfiguration, CommandReply } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { audit } from '../../../platform/audit.ts';
import type { AreaContext } from '../../../platform/context.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import {
  chargerGateway,
  type ChargerCommand,
  type CommandAnswer,
  type HostTarget,
} from '../common/gateway.ts';
import { LIVE_LINK_SYSTEM_TYPE } from '../common/liveness.ts';
import { startRefusal } from '../charge-record/admission.ts';
import { hostUnderEmergencyStop } from '../park-area/emergency-state.ts';
import { chargerConfigurations } from './configuration.ts';

/**
 * Operator commands to charging hosts over their device link (docs/chargers.md, "Commands"): start a session
 * for a card from the socket grid, restart a host, set a host's OCPP password. Each is audited with the
 * operator and its device answer; a host that is offline, refuses or does not answer gives a translated 409
 * and nothing else changes. (Enabling or disabling a socket sends ChangeAvailability from SetStatus.)
 */

/** A socket of the area with the host a command for it goes to (one read), or undefined. */
export async function socketWithHost(db: Kysely<Database>, areaId: number, socketId: number) {
  const row = await db
    .selectFrom('ChargeEquipment')
    .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
    .select([
      'ChargeEquipment.Id',
      'ChargeEquipment.State',
      'ChargeEquipment.PortNumber',
      'ChargeEquipment.Disabled',
      'ChargeHost.Name as HostName',
      'ChargeHost.Id as HostId',
      'ChargeHost.SerialNumber',
      'ChargeHost.ChargingSystemType',
    ])
    .where('ChargeEquipment.Id', '=', socketId)
    .where('ChargeEquipment.AreaId', '=', areaId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { HostId, SerialNumber, ChargingSystemType, ...socket } = row;
  const host: HostTarget = {
    hostId: HostId,
    serialNumber: SerialNumber,
    chargingSystemType: ChargingSystemType,
  };
  return { ...socket, host };
}

async function hostOf(ctx: AreaContext, hostId: number): Promise<HostTarget> {
  const host = await ctx.db.kysely
    .selectFrom('ChargeHost')
    .select(['Id', 'SerialNumber', 'ChargingSystemType'])
    .where('Id', '=', hostId)
    .where('AreaId', '=', ctx.areaId)
    .executeTakeFirst();
  if (!host) throw notFound();
  return { hostId: host.Id, serialNumber: host.SerialNumber, chargingSystemType: host.ChargingSystemType };
}

/** Sends a command through the context's gateway ("not sent" without one, or for a host it does not drive). */
export async function sendCommand(
  ctx: AreaContext,
  host: HostTarget,
  command: ChargerCommand,
): Promise<CommandAnswer> {
  const gateway = chargerGateway(ctx);
  if (!gateway?.command) return { outcome: 'notSent', reason: 'noDeviceLink' };
  return gateway.command(host, command).catch((): CommandAnswer => ({ outcome: 'timeout' }));
}

/**
 * The audit entry of a command, and the translated 409 unless the device accepted it. `names` name the object
 * (a socket's host and number) on both sides of the entry, so the log shows them as the object, not as changes.
 */
async function settleCommand(
  ctx: AreaContext,
  entity: 'ChargeHost' | 'ChargeEquipment',
  entityId: number,
  action: string,
  detail: { CardNumber: string } | { Type: 'Hard' | 'Soft' },
  answer: CommandAnswer,
  names: { HostName: string; PortNumber: number } | null = null,
): Promise<CommandReply> {
  await audit(ctx, {
    action,
    entity,
    entityId,
    before: names,
    after: {
      ...names,
      ...detail,
      Outcome: answer.outcome,
      ...('status' in answer ? { Status: answer.status } : {}),
    },
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
): Promise<CommandReply> {
  const socket = await socketWithHost(ctx.db.kysely, ctx.areaId, socketId);
  if (!socket) throw notFound();
  if (socket.Disabled) throw new AppError(409, 'garage.error.socketDisabled');
  const refusal = await startRefusal(ctx.db.kysely, socket.Id);
  if (refusal) throw new AppError(409, `garage.error.startRefused.${refusal}`);
  const answer = await sendCommand(ctx, socket.host, {
    kind: 'remoteStart',
    portNumber: socket.PortNumber,
    idTag: cardNumber,
  });
  return settleCommand(ctx, 'ChargeEquipment', socket.Id, 'remoteStart', { CardNumber: cardNumber }, answer, {
    HostName: socket.HostName,
    PortNumber: socket.PortNumber,
  });
}

/**
 * After an operator enabled or disabled a socket: ChangeAvailability to its charge point (Operative or
 * Inoperative). Gatehouse's decision stands whatever the device answers (a disabled socket shows 12 and takes
 * no session); the answer is audited with the operator, and a host without a live link is not asked.
 */
export async function syncAvailability(ctx: AreaContext, socketId: number, disabled: boolean): Promise<void> {
  const socket = await socketWithHost(ctx.db.kysely, ctx.areaId, socketId);
  if (!socket || socket.host.chargingSystemType !== LIVE_LINK_SYSTEM_TYPE) return;
  // Under its zone's emergency stop the connector stays Inoperative: the release makes the enabled ones Operative.
  if (!disabled && (await hostUnderEmergencyStop(ctx.db.kysely, socket.host.hostId))) return;
  const answer = await sendCommand(ctx, socket.host, {
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

export async function resetHost(ctx: AreaContext, hostId: number, hard: boolean): Promise<CommandReply> {
  const host = await hostOf(ctx, hostId);
  const answer = await sendCommand(ctx, host, { kind: 'reset', hard });
  return settleCommand(ctx, 'ChargeHost', hostId, 'reset', { Type: hard ? 'Hard' : 'Soft' }, answer);
}

/**
 * The operator's "configure" (docs/chargers.md, "Configured by Gatehouse"): one configuration pass on the
 * instance holding the charge point (read, then write what differs), stored there; the reply is the pass as
 * stored. Audited with the operator and the outcome per key; not connected is a translated 409 and nothing runs.
 */
export async function configureHost(ctx: AreaContext, hostId: number): Promise<ChargerConfiguration> {
  const host = await hostOf(ctx, hostId);
  if (host.chargingSystemType !== LIVE_LINK_SYSTEM_TYPE) throw new AppError(409, 'garage.error.hostNotOcpp');
  const answer = await sendCommand(ctx, host, { kind: 'configure' });
  const pass =
    answer.outcome === 'accepted'
      ? (await chargerConfigurations(ctx.db.kysely, [hostId])).get(hostId)
      : undefined;
  await audit(ctx, {
    action: 'configure',
    entity: 'ChargeHost',
    entityId: hostId,
    before: null,
    after: {
      Outcome: answer.outcome,
      ...('status' in answer ? { Status: answer.status } : {}),
      ...(pass
        ? {
            ReadError: pass.ReadError,
            Keys: Object.fromEntries(pass.Keys.map((k) => [k.Key, k.Outcome])),
          }
        : {}),
    },
  });
  if (answer.outcome === 'notSent')
    throw new AppError(
      409,
      answer.reason === 'notConnected' ? 'garage.error.configureOffline' : 'garage.error.hostNotOcpp',
    );
  if (answer.outcome === 'timeout') throw new AppError(409, 'garage.error.commandTimeout');
  if (answer.outcome === 'refused' || !pass)
    throw new AppError(409, 'garage.error.commandRefused', {
      status: 'status' in answer ? answer.status : 'none',
    });
  return pass;
}

/**
 * A new OCPP password for a charging-API host: 40 hexadecimal digits (an AuthorizationKey every charger takes),
 * stored hashed, returned once in this reply and never again. The audit entry says it changed, not what it is.
 */
export async function newOcppPassword(ctx: AreaContext, hostId: number): Promise<{ Password: string }> {
  const host = await hostOf(ctx, hostId);
  if (host.chargingSystemType !== LIVE_LINK_SYSTEM_TYPE) throw new AppError(409, 'garage.error.hostNotOcpp');
  const gateway = chargerGateway(ctx);
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
