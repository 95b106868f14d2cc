import {
  accessControlProtocol,
  accessControlType,
  doorCount,
  type AccessControlDeviceItem,
} from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import { exportColumns } from '../../../platform/export-columns.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { numberOrNull } from '../../../platform/instants.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the resource helper's query type */

/** A controller with its area, its state as the gateway last stored it, its ring cursor and channel count. */
export function deviceQuery(db: Kysely<any>) {
  return db
    .selectFrom('AccessControlDevice')
    .leftJoin('AreaInfo', 'AreaInfo.Id', 'AccessControlDevice.AreaId')
    .leftJoin('AccessControlDeviceState as S', 'S.DeviceId', 'AccessControlDevice.Id')
    .leftJoin('AccessControlRecordCursor as RC', 'RC.DeviceId', 'AccessControlDevice.Id')
    .leftJoin('AccessControlRuleSync as RS', 'RS.DeviceId', 'AccessControlDevice.Id')
    .select((eb) => [
      'AccessControlDevice.Interlock',
      'AccessControlDevice.AntiPassback',
      'RS.State as RuleSyncState',
      'RS.Error as RuleSyncError',
      'RS.FinishedAt as RuleSyncAt',
      'RS.RestoredAt as RulesRestoredAt',
      'RS.ProfileSlots',
      'RS.Revision as RuleRevision',
      'RS.AppliedRevision as RuleAppliedRevision',
      'S.Online',
      'S.LastSeenAt',
      'S.Firmware',
      'S.ClockDriftSeconds',
      'S.DriftCheckedAt',
      'S.ListenerAddress',
      'S.SyncState',
      'S.SyncPhase',
      'S.SyncDone',
      'S.SyncTotal',
      'S.SyncFinishedAt',
      'S.SyncError',
      'RC.LostRecords',
      'RC.NextIndex as NextRecordIndex',
      'AccessControlDevice.Id',
      'AccessControlDevice.AreaId',
      'AreaInfo.Name as AreaName',
      'AccessControlDevice.SerialNumber',
      'AccessControlDevice.Name',
      'AccessControlDevice.Protocol',
      'AccessControlDevice.Type',
      'AccessControlDevice.Ip',
      'AccessControlDevice.Port',
      'AccessControlDevice.Location',
      'AccessControlDevice.Remark',
      'AccessControlDevice.Disabled',
      'AccessControlDevice.AssignedAt',
      'AccessControlDevice.CreatedAt',
      'AccessControlDevice.UpdatedAt',
      eb
        .selectFrom('AccessControlChannel')
        .select((e) => e.fn.countAll().as('n'))
        .whereRef('AccessControlChannel.DeviceId', '=', 'AccessControlDevice.Id')
        .as('ChannelCount'),
    ]);
}

const mapDevice = rowMapper<AccessControlDeviceItem>({
  instants: [
    'AssignedAt',
    'CreatedAt',
    'UpdatedAt',
    'LastSeenAt',
    'DriftCheckedAt',
    'SyncFinishedAt',
    'RuleSyncAt',
    'RulesRestoredAt',
  ],
});

export function toDeviceItem(row: Record<string, any>): AccessControlDeviceItem {
  const item = mapDevice(row);
  return {
    ...item,
    DoorCount: doorCount(item.Type),
    ChannelCount: Number(row.ChannelCount ?? 0),
    Port: numberOrNull(row.Port),
    Online: row.Online === null || row.Online === undefined ? null : Number(row.Online) === 1,
    Firmware: row.Firmware ?? null,
    ClockDriftSeconds: numberOrNull(row.ClockDriftSeconds),
    // Known only to the device list's enrichment (service.ts asKnown), from the lease table.
    BetweenOwners: false,
    ListenerAddress: row.ListenerAddress ?? null,
    SyncState: row.SyncState ?? null,
    SyncPhase: row.SyncPhase ?? null,
    SyncDone: Number(row.SyncDone ?? 0),
    SyncTotal: Number(row.SyncTotal ?? 0),
    SyncError: row.SyncError ?? null,
    LostRecords: Number(row.LostRecords ?? 0),
    NextRecordIndex: numberOrNull(row.NextRecordIndex),
    Interlock: Number(row.Interlock ?? 0),
    AntiPassback: Number(row.AntiPassback ?? 0),
    RuleSyncState: ruleSyncState(row),
    RuleSyncError: row.RuleSyncError ?? null,
    ProfileSlots: Number(row.ProfileSlots ?? 0),
  };
}

/** A change not yet brought to the controller shows as pending, unless a pass is running or has failed. */
function ruleSyncState(row: Record<string, any>): string | null {
  const pending = Number(row.RuleRevision ?? 0) > Number(row.RuleAppliedRevision ?? 0);
  if (row.RuleSyncState === 'running' || row.RuleSyncState === 'failed') return row.RuleSyncState;
  return pending ? 'pending' : (row.RuleSyncState ?? null);
}

/** The sort columns of both device lists (management and the registration pool). */
export const deviceSortColumns = {
  Name: 'AccessControlDevice.Name',
  Id: 'AccessControlDevice.Id',
  SerialNumber: 'AccessControlDevice.SerialNumber',
  CreatedAt: 'AccessControlDevice.CreatedAt',
};

/** Protocol and model, as both device exports show them. */
export const deviceModelColumns = exportColumns<AccessControlDeviceItem>('accessControl.field', {
  Protocol: { enum: accessControlProtocol },
  Type: { enum: accessControlType },
});
