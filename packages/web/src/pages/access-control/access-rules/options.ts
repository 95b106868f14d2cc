import { AccessControlOptionsApi, PROTOCOL_WG, TimeProfileApi } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import type {
  ColumnDef,
  FieldDef,
  FilterDef,
  OptionSource,
  Row,
  TKey,
} from '../../../components/list-page/index.ts';
import { deviceField, deviceFilter } from '../options.ts';

/**
 * The area's controllers Gatehouse drives (WG): only they keep door schedules (as their task list, written by
 * the gateway); a third-party gate is not offered (the server refuses it too). Reloaded after device writes.
 */
export const DRIVEN_DEVICE_OPTIONS_KEY = 'ac.drivenDevices';
const drivenDeviceOptions: OptionSource = {
  kind: 'remote',
  key: DRIVEN_DEVICE_OPTIONS_KEY,
  load: async () =>
    (await call(AccessControlOptionsApi.devices))
      .filter((d) => d.Protocol === PROTOCOL_WG)
      .map((d) => ({ value: d.Id, label: `${d.Name} (${d.SerialNumber})` })),
};
export const drivenDeviceField: FieldDef = { ...deviceField, options: drivenDeviceOptions };
export const drivenDeviceFilter: FilterDef = { ...deviceFilter, options: drivenDeviceOptions };

/** The area's time profiles to choose from (grants, links). */
export const TIME_PROFILE_OPTIONS_KEY = 'ac.timeProfiles';
export const timeProfileOptions: OptionSource = {
  kind: 'remote',
  key: TIME_PROFILE_OPTIONS_KEY,
  load: async () => (await call(TimeProfileApi.choices)).map((p) => ({ value: p.Id, label: p.Name })),
};

/** Monday (1) to Sunday (7), as the API numbers them. */
const weekdayOptions: OptionSource = {
  kind: 'static',
  options: (t) =>
    [1, 2, 3, 4, 5, 6, 7].map((d) => ({ value: d, label: t(`accessControl.weekday.${d}` as TKey) })),
};

export function weekdayText(days: readonly number[], t: (key: TKey) => string): string {
  return days.map((d) => t(`accessControl.weekday.${d}` as TKey)).join(' ');
}

/** A rule that holds from one date to another on chosen days of the week: a door schedule, a time profile. */
type Period = Row & { StartDate: string; EndDate: string; Weekdays: readonly number[] };

/** A rule's date range: both ends under a header that says so. */
export function dateRangeColumn<T extends Period>(): ColumnDef<T> {
  return {
    key: 'StartDate',
    title: 'accessControl.field.DateRange',
    width: 200,
    render: (row) => `${row.StartDate} ~ ${row.EndDate}`,
  };
}

export function weekdaysColumn<T extends Period>(): ColumnDef<T> {
  return {
    key: 'Weekdays',
    title: 'accessControl.field.Weekdays',
    width: 200,
    render: (row, t) => weekdayText(row.Weekdays, t),
  };
}

/** A rule's first and last date and its days of the week, as both rule forms ask them. */
export const periodFields: FieldDef[] = [
  { name: 'StartDate', label: 'accessControl.field.StartDate', kind: 'date', required: true },
  { name: 'EndDate', label: 'accessControl.field.EndDate', kind: 'date', required: true },
  {
    name: 'Weekdays',
    label: 'accessControl.field.Weekdays',
    kind: 'multiSelect',
    options: weekdayOptions,
    required: true,
    wide: true,
  },
];

/** "08:00-12:00, 13:00-18:00" ↔ [{ Start, End }]: the segments as one line to type. */
export function segmentsText(segments: readonly { Start: string; End: string }[]): string {
  return segments.map((s) => `${s.Start}-${s.End}`).join(', ');
}

export function parseSegments(text: unknown): { Start: string; End: string }[] {
  return String(text ?? '')
    .split(/[,，;]/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [Start = '', End = ''] = part.split(/\s*[-–~]\s*/);
      return { Start: Start.padStart(5, '0'), End: End.padStart(5, '0') };
    });
}
