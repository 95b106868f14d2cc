import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  DoorOpeningRecordApi,
  doorDirection,
  doorRecordReason,
  doorRecordResult,
  findEnumItem,
  ACCESS_CONTROL_ANY,
  type DoorOpeningRecordItem,
  type EnumDef,
} from '@gatehouse/shared';
import { ListPage, type ListPageConfig, type TKey } from '../../../components/list-page/index.ts';
import { ResultTag, TwoLineCell } from '../cells.tsx';
import { deviceFilter, enumFilter } from '../options.ts';
import { recordRange } from '../record-range.ts';
import { useLiveList } from '../live.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { accessCheckAction, checkMinute } from '../access-check/links.ts';
import { applySwipe } from './live-swipes.ts';
import { eventText, isAlarm, isRemoteOpen, isSwipe } from './record-text.tsx';
import '../access-control.css';

type SwipeRow = DoorOpeningRecordItem;

function enumText(tr: (key: TKey) => string, def: EnumDef, value: number | null): string {
  const item = value === null ? undefined : findEnumItem(def, value);
  return item ? tr(item.key as TKey) : value === null ? '-' : String(value);
}

/**
 * Door-opening (swipe) records, newest first: the last week by default, never more than 61 days (the
 * server's limit), by result, holder, card and device; exported with the same filters.
 */
/** A refused swipe opens the access check on its card, its door and its minute: "why was I refused?". */
const checkSwipe = accessCheckAction<SwipeRow>(
  (row) => ({ CardNumber: row.CardNumber, ChannelId: row.ChannelId, At: checkMinute(row.At) }),
  (row) => isSwipe(row) && !row.Result && row.ChannelId !== null,
);

const config: ListPageConfig<SwipeRow> = {
  api: DoorOpeningRecordApi,
  read: ACCESS_CONTROL_ANY,
  write: [],
  actions: { export: true },
  filters: [
    recordRange('accessControl.field.At'),
    enumFilter('Result', 'accessControl.field.Result', doorRecordResult, 130),
    { name: 'HolderName', label: 'accessControl.field.HolderName', kind: 'text', width: 140 },
    {
      name: 'CardNumber',
      label: 'accessControl.field.CardNumber',
      kind: 'text',
      width: 150,
      placeholder: 'acUi.record.wholeCard',
    },
    deviceFilter,
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
        isSwipe(row) || isRemoteOpen(row) ? (
          <ResultTag opened={row.Result} />
        ) : isAlarm(row) ? (
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
      // codes the enum does not name are shown as numbers rather than hidden. A swipe's cause is its reason
      // column (the controller's, when it named one): its code again here would be a second cause.
      key: 'EventReason',
      title: 'acUi.record.event',
      width: 160,
      render: (row, tr) => {
        const event = isSwipe(row) ? null : eventText(row, tr as never);
        if (event === null) return '-';
        return (
          <span data-event-reason={row.EventReason}>
            {event}
            {row.OpenedBy && (
              <span className="ac-opened-by" data-opened-by={row.OpenedBy}>
                {' · '}
                {tr('accessControl.field.OpenedBy')}: {row.OpenedBy}
              </span>
            )}
          </span>
        );
      },
    },
  ],
  rowActions: [checkSwipe.action],
};

const LIVE_EVENTS = ['Swipe', 'DoorAlarm'] as const;

export default function DoorOpeningRecordsPage() {
  const { t } = useTranslation();
  checkSwipe.useFollow();
  // New swipes, door events and alarms reach the area's hub with the record as the list shows it: an open
  // first page takes it in place; a page that cannot tell whether it belongs there asks again.
  useLiveList({
    name: DoorOpeningRecordApi.name,
    events: LIVE_EVENTS,
    apply: (event, queryClient) =>
      applySwipe(event, queryClient, useAreaStore.getState().current?.Id ?? null),
  });
  return <ListPage config={config} title={t('route.doorOpeningRecords')} />;
}
