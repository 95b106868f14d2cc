import { ChargeHostApi, chargingSystemType, disabledFlag, enumLabel } from '@gatehouse/shared';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { newOcppPassword, resetHost } from './commands.ts';
import {
  addHostSockets,
  changedHost,
  chargeHostItem,
  chargeHostQuery,
  newHost,
  withPresence,
} from './service.ts';

const { reset, setOcppPassword, ...resource } = ChargeHostApi;

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
      columns: [
        { key: 'SerialNumber', labelKey: 'garage.field.SerialNumber', width: 20 },
        { key: 'Name', labelKey: 'garage.field.HostName', width: 24 },
        { key: 'ZoneName', labelKey: 'garage.field.ZoneName', width: 20 },
        { key: 'PortCount', labelKey: 'garage.field.PortCount', kind: 'number' },
        {
          key: 'ChargingSystemType',
          labelKey: 'garage.field.ChargingSystemType',
          width: 24,
          label: (v, lang) => enumLabel(lang, chargingSystemType, v),
        },
        { key: 'Endpoint', labelKey: 'garage.field.Endpoint', width: 36 },
        { key: 'SocketsOccupied', labelKey: 'garage.field.SocketsOccupied', kind: 'number' },
        { key: 'SocketsFault', labelKey: 'garage.field.SocketsFault', kind: 'number' },
        { key: 'LastSeenAt', labelKey: 'garage.field.LastSeenAt', kind: 'instant' },
        {
          key: 'Disabled',
          labelKey: 'garage.field.Status',
          label: (v, lang) => enumLabel(lang, disabledFlag, v),
        },
      ],
    },
  }),
  route(reset, ({ body }, ctx) => resetHost(ctx, body.Id, body.Hard ?? false)),
  route(setOcppPassword, ({ body }, ctx) => newOcppPassword(ctx, body.Id)),
];
