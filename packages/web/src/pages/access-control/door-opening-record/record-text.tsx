import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  doorEventReason,
  doorRecordReason,
  findEnumItem,
  type DoorOpeningRecordItem,
} from '@gatehouse/shared';
import { ResultTag } from '../cells.tsx';

/**
 * One reading of a door-opening record for every screen that shows them (the swipe list, the dashboard's latest
 * events, the door monitor's feed): a card swipe has a holder, a card and a result; a controller's door event
 * (push button, door sensor, remote open, power-on) and an alarm (forced, held open, fire…) have neither, only
 * the controller's reason code (docs/devices.md, "Record"). Their card number is the ring's empty 0000000000.
 */

type Row = Pick<
  DoorOpeningRecordItem,
  | 'EventType'
  | 'EventReason'
  | 'Result'
  | 'Reason'
  | 'HolderName'
  | 'CardNumber'
  | 'DeviceName'
  | 'ChannelName'
  | 'DoorNumber'
>;
type T = (key: never, options?: Record<string, unknown>) => string;

/** A card swipe; records not read from a controller (EventType null) are swipes too. */
export const isSwipe = (row: Pick<Row, 'EventType'>) => row.EventType === null || row.EventType === 1;
/** Record type 3: an alarm. */
export const isAlarm = (row: Pick<Row, 'EventType'>) => row.EventType === 3;
/** A remote open (44, 45 by a USB reader): its record says whether the door opened. */
export const isRemoteOpen = (row: Pick<Row, 'EventReason'>) =>
  row.EventReason === 44 || row.EventReason === 45;

/** The controller's event in words (codes the enum does not name stay numbers); null: the record has none. */
export function eventText(row: Pick<Row, 'EventReason'>, t: T): string | null {
  if (row.EventReason === null) return null;
  const item = findEnumItem(doorEventReason, row.EventReason);
  return item ? t(item.key as never) : String(row.EventReason);
}

/**
 * Where: the controller and the door's reader (or the door's number): "door 1 in" exists on every controller,
 * so the controller's name always comes first.
 */
export function recordPlace(row: Pick<Row, 'DeviceName' | 'ChannelName' | 'DoorNumber'>, t: T): string {
  const door =
    row.ChannelName ?? (row.DoorNumber > 0 ? t(`enum.doorNumber.${row.DoorNumber}` as never) : null);
  return door ? `${row.DeviceName} · ${door}` : row.DeviceName;
}

/**
 * What happened: the holder (or card) and the result of a swipe, with a refusal's stored reason (the
 * controller's when it named one: anti-passback, time profile…; its code is not repeated as an event), or the
 * door event or alarm as a tag.
 */
export function RecordWhat({ row }: { row: Row }) {
  const { t } = useTranslation();
  if (isSwipe(row)) {
    const refusal = row.Result ? undefined : findEnumItem(doorRecordReason, row.Reason);
    return (
      <span data-record-kind="swipe">
        <ResultTag opened={row.Result} /> {row.HolderName ?? row.CardNumber}
        {refusal && (
          <span className="record-reason" data-reason={row.Reason}>
            {' · '}
            {t(refusal.key as never)}
          </span>
        )}
      </span>
    );
  }
  const alarm = isAlarm(row);
  return (
    <span data-record-kind={alarm ? 'alarm' : 'door'} data-event-reason={row.EventReason ?? undefined}>
      <Tag color={alarm ? 'red' : 'blue'}>
        {eventText(row, t as T) ?? (alarm ? t('acUi.record.alarm') : '-')}
      </Tag>
      {isRemoteOpen(row) && <ResultTag opened={row.Result} />}
    </span>
  );
}
