import type { DoorOpeningRecordItem } from '@gatehouse/shared';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  doorDirection,
  doorEventReason,
  doorRecordReason,
  doorRecordResult,
  findEnumItem,
  ACCESS_CONTROL_ANY,
  type EnumDef,
} from '@gatehouse/shared';
import { ListPage, type ListPageConfig, type TKey } from '../../../components/list-page/index.ts';
import { ResultTag, TwoLineCell } from '../cells.tsx';
import { deviceOptions } from '../options.ts';
import { recordRange } from '../record-range.ts';
import { useLiveList } from '../live.ts';
import '../access-control.css';

type SwipeRow = DoorOpeningRecordItem;

/**
 * A card swipe, as opposed to a controller's door event (button, remote open, door sensor) or alarm: only a
 * swipe has a card, a direction of passage, a granted/denied result and a reason; the others are told by the
 * door-event column (docs/devices.md, "Record").
 */
const isSwipe = (row: SwipeRow) => row.EventType === null || row.EventType === 1;
const ALARM = 3;

function enumText(tr: (key: TKey) => string, def: EnumDef, value: number | null): string {
  const item = value === null ? undefined : findEnumItem(def, value);
  return item ? tr(item.key as TKey) : value === null ? '-' : String(value);
}

/**
 * Door-opening (swipe) records, newest first: the last week by default, never more than 61 days (the
 * server's limit), by result, holder, card and device; exported with the same filters.
 */
const config: ListPageConfig<SwipeRow> = {
  resource: 'DoorOpeningRecord',
  read: ACCESS_CONTROL_ANY,
  write: [],
  actions: { export: true },
  filters: [
    recordRange('accessControl.field.At'),
    {
      name: 'Result',
      label: 'accessControl.field.Result',
      kind: 'select',
      options: { kind: 'enum', def: doorRecordResult },
      width: 130,
    },
    { name: 'HolderName', label: 'accessControl.field.HolderName', kind: 'text', width: 140 },
    {
      name: 'CardNumber',
      label: 'accessControl.field.CardNumber',
      kind: 'text',
      width: 150,
      placeholder: 'acUi.record.wholeCard',
    },
    {
      name: 'DeviceId',
      label: 'accessControl.field.DeviceName',
      kind: 'select',
      options: deviceOptions,
      width: 220,
    },
  ],
  columns: [
    { key: 'At', title: 'accessControl.field.At', kind: 'instant', width: 170 },
    {
      key: 'CardNumber',
      title: 'accessControl.field.CardNumber',
      width: 130,
      render: (row, tr) =>
        !isSwipe(row) && row.CardValue === 0 ? (
          '-'
        ) : (
          <Tooltip title={tr('acUi.card.deviceForm', { value: row.CardValue })}>
            <span className="ac-card-number">{row.CardNumber}</span>
          </Tooltip>
        ),
    },
    {
      key: 'HolderName',
      title: 'accessControl.field.HolderName',
      width: 110,
    },
    {
      key: 'DeviceName',
      title: 'accessControl.field.DeviceName',
      width: 170,
      render: (row) => <TwoLineCell main={row.DeviceName} sub={row.ChannelName} />,
    },
    {
      key: 'Direction',
      title: 'accessControl.field.Direction',
      width: 80,
      render: (row, tr) => enumText(tr, doorDirection, isSwipe(row) ? row.Direction : null),
    },
    {
      key: 'Result',
      title: 'accessControl.field.Result',
      width: 110,
      render: (row, tr) =>
        isSwipe(row) ? (
          <ResultTag opened={row.Result} />
        ) : row.EventType === ALARM ? (
          <Tag color="red" data-alarm="true">
            {tr('acUi.record.alarm')}
          </Tag>
        ) : (
          '-'
        ),
    },
    {
      key: 'Reason',
      title: 'accessControl.field.Reason',
      render: (row, tr) => enumText(tr, doorRecordReason, isSwipe(row) ? row.Reason : null),
    },
    {
      // The controller's own reason: what a door event or alarm was (button, held open, forced, remote open…);
      // codes the enum does not name are shown as numbers rather than hidden.
      key: 'EventReason',
      title: 'acUi.record.event',
      width: 160,
      render: (row, tr) => {
        if (row.EventReason === null) return '-';
        const item = findEnumItem(doorEventReason, row.EventReason);
        return (
          <span data-event-reason={row.EventReason}>
            {item ? tr(item.key as never) : String(row.EventReason)}
          </span>
        );
      },
    },
  ],
};

const LIVE_EVENTS = ['swipe', 'doorAlarm'] as const;

export default function DoorOpeningRecordsPage() {
  const { t } = useTranslation();
  // New swipes and door events reach the area's hub: the open list reloads its current page.
  useLiveList('DoorOpeningRecord', LIVE_EVENTS);
  return <ListPage config={config} title={t('route.doorOpeningRecords')} />;
}
