import { ChargeHostApi, chargingSystemType, disabledFlag } from '@gatehouse/shared';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { configureHost, newOcppPassword, resetHost } from './commands.ts';
import { clearHeatAlarm } from './heat-alarm.ts';
import {
  addHostSockets,
  changedHost,
  chargeHostItem,
  chargeHostQuery,
  newHost,
  withPresence,
} from './service.ts';

const { reset, configure, setOcppPassword, clearAlarm, ...resource } = ChargeHostApi;

/** Charging hosts (spec screen chargeHost); creating one creates its sockets 1…PortCount. */
export const chargeHostRoutes = [
  ...implementResource(resource, {
    table: 'ChargeHost',
    query: chargeHostQuery,
    toItem: chargeHostItem,
    enrich: withPresence,
    where: {
      Keyword: match.keyword(['ChargeHost.Name', 'ChargeHost.SerialNumber']),
      ParkAreaId: match.equals('ChargeHost.ParkAreaId'),
      ChargingSystemType: match.equals('ChargeHost.ChargingSystemType'),
      Disabled: match.flag('ChargeHost.Disabled'),
    },
    sorts: {
      Name: 'ChargeHost.Name',
      SerialNumber: 'ChargeHost.SerialNumber',
      ZoneName: 'ParkArea.Name',
      LastSeenAt: 'ChargeHost.LastSeenAt',
      CreatedAt: 'ChargeHost.CreatedAt',
    },
    timestamps: true,
    unique: [{ fields: ['Name'], key: 'garage.error.hostNameTaken' }],
    create: { values: newHost, after: addHostSockets },
    update: { values: changedHost },
    remove: { check: (ctx, row, trx) => assertNoDependents('ChargeHost', trx, row.Id as number, ctx.lang) },
    status: {},
    export: {
      titleKey: 'garage.title.chargeHost',
      columns: exportColumns('garage.field', {
        SerialNumber: 20,
        Name: { header: 'HostName', width: 24 },
        ZoneName: 20,
        PortCount: 'number',
        ChargingSystemType: { enum: chargingSystemType, width: 24 },
        Endpoint: 36,
        SocketsOccupied: 'number',
        SocketsFault: 'number',
        LastSeenAt: 'instant',
        Disabled: { header: 'Status', enum: disabledFlag },
      }),
    },
  }),
  route(reset, ({ body }, ctx) => resetHost(ctx, body.Id, body.Hard ?? false)),
  route(configure, ({ body }, ctx) => configureHost(ctx, body.Id)),
  route(setOcppPassword, ({ body }, ctx) => newOcppPassword(ctx, body.Id)),
  route(clearAlarm, ({ body }, ctx) => clearHeatAlarm(ctx, body.Id, body.Note)),
];
