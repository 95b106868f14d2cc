import { ChargeEquipmentApi, chargePortState, disabledFlag } from '@gatehouse/shared';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { remoteStart } from '../charge-host/commands.ts';
import {
  changeSocketStatus,
  changedSocket,
  chargeEquipmentItem,
  inStateGroup,
  newSocket,
  socketGrid,
  socketQuery,
  withSessions,
} from './service.ts';

// The socket's own SetStatus (state 12, the charger told) replaces the standard one; the rest is standard.
const { grid, setStatus, remoteStart: remoteStartOp, ...resource } = ChargeEquipmentApi;

/** Charging sockets (spec screen chargeEquipment): list, grid, status, remote start and the standard writes. */
export const chargeEquipmentRoutes = [
  route(grid, ({ query }, ctx) => socketGrid(ctx, query.ChargeHostId)),
  route(setStatus, ({ query }, ctx) => changeSocketStatus(ctx, query.Id, query.Disabled)),
  route(remoteStartOp, ({ body }, ctx) => remoteStart(ctx, body.ChargeEquipmentId, body.CardNumber)),
  ...implementResource(resource, {
    table: 'ChargeEquipment',
    query: socketQuery,
    toItem: chargeEquipmentItem,
    enrich: withSessions,
    where: {
      ChargeHostId: match.equals('ChargeEquipment.ChargeHostId'),
      ParkAreaId: match.equals('ChargeHost.ParkAreaId'),
      State: match.equals('ChargeEquipment.State'),
      StateGroup: inStateGroup,
      Disabled: match.flag('ChargeEquipment.Disabled'),
      Keyword: match.keyword(['ChargeHost.Name', 'ChargeHost.SerialNumber']),
    },
    sorts: {
      // First, so the default: known states first (a connected charger's or disabled), then in the order the
      // sockets were created (host by host, port by port); "unknown / not connected" after them.
      KnownFirst: 'Unknown',
      Host: 'ChargeHost.Name',
      PortNumber: 'ChargeEquipment.PortNumber',
      State: 'ChargeEquipment.State',
      StateChangedAt: 'ChargeEquipment.StateChangedAt',
    },
    timestamps: true,
    unique: [{ fields: ['ChargeHostId', 'PortNumber'], key: 'garage.error.portTaken' }],
    create: { values: newSocket },
    update: { values: changedSocket },
    remove: {
      check: (ctx, row, trx) => assertNoDependents('ChargeEquipment', trx, row.Id as number, ctx.lang),
    },
    export: {
      titleKey: 'garage.title.chargeEquipment',
      columns: exportColumns('garage.field', {
        ZoneName: 20,
        HostName: 24,
        HostSerialNumber: { header: 'SerialNumber', width: 20 },
        PortNumber: 'number',
        State: { enum: chargePortState, width: 20 },
        StateChangedAt: 'instant',
        Disabled: { header: 'Status', enum: disabledFlag },
        Remark: 30,
      }),
    },
  }),
];
