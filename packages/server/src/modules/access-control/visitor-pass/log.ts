import { doorDirection, doorRecordReason, doorRecordResult, type VisitorLogItem } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import { exportColumns } from '../../../platform/export-columns.ts';
import { contains, match, type Where } from '../../../platform/filters.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { numberOrNull } from '../../../platform/instants.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the resource helper's query and filter types */

/**
 * The visitor log (docs/access-control.md, "Visitor passes"): the swipe records of passes' cards, read where
 * they are kept (DoorOpeningRecord, whose one writer resolved the pass's holder row from its card) and joined
 * to their pass for the visitor and the host. Nothing is copied: retention of swipe records is the log's too.
 */
export function visitorLogQuery(db: Kysely<any>) {
  return db
    .selectFrom('DoorOpeningRecord')
    .innerJoin('VisitorPass', 'VisitorPass.CardUserId', 'DoorOpeningRecord.CardUserId')
    .select([
      'DoorOpeningRecord.Id',
      'DoorOpeningRecord.At',
      'VisitorPass.Id as VisitorPassId',
      'VisitorPass.VisitorName',
      'VisitorPass.Company',
      'VisitorPass.HostCardUserId',
      'VisitorPass.HostName',
      'DoorOpeningRecord.CardNumber',
      'DoorOpeningRecord.DeviceId',
      'DoorOpeningRecord.DeviceName',
      'DoorOpeningRecord.ChannelName',
      'DoorOpeningRecord.DoorNumber',
      'DoorOpeningRecord.Direction',
      'DoorOpeningRecord.Result',
      'DoorOpeningRecord.Reason',
      'DoorOpeningRecord.EventReason',
    ]);
}

const mapEntry = rowMapper<VisitorLogItem>({ flags: ['Result'], instants: ['At'] });

export function toVisitorLogItem(row: Record<string, unknown>): VisitorLogItem {
  const item = mapEntry(row);
  return {
    ...item,
    Reason: Number(item.Reason),
    EventReason: numberOrNull(item.EventReason),
  };
}

export const visitorLogWhere: {
  Keyword: Where<string>;
  VisitorPassId: Where<number>;
  HostCardUserId: Where<number>;
  DeviceId: Where<number>;
  Result: Where<boolean>;
} = {
  Keyword: (eb, text) =>
    eb.or(
      ['VisitorPass.VisitorName', 'VisitorPass.Company', 'DoorOpeningRecord.CardNumber'].map((c) =>
        contains(eb, c, text),
      ),
    ),
  VisitorPassId: match.equals('VisitorPass.Id'),
  HostCardUserId: match.equals('VisitorPass.HostCardUserId'),
  DeviceId: match.equals('DoorOpeningRecord.DeviceId'),
  Result: match.flag('DoorOpeningRecord.Result'),
};

export const visitorLogExportColumns = exportColumns<VisitorLogItem>('accessControl.field', {
  At: 'instant',
  VisitorName: 20,
  Company: 20,
  HostName: 16,
  CardNumber: 14,
  DeviceName: 20,
  ChannelName: 20,
  Direction: { enum: doorDirection },
  Result: { enum: doorRecordResult },
  Reason: { enum: doorRecordReason, width: 24 },
});
