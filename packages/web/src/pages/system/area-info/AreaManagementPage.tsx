import {
  AREA_MANAGERS,
  AreaInfoApi,
  isTimeZone,
  parseCustom,
  zoneOffsetLabel,
  type AreaInfoItem,
} from '@gatehouse/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../../core/api.ts';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { AreaUsersDialog } from './AreaUsersDialog.tsx';
import { systemDialogs } from '../dialogs.ts';

type AreaRow = AreaInfoItem;

/** The custom keys the form edits field by field; any other key stays in the JSON of "other data". */
const KNOWN = { address: 'CustomAddress', contact: 'CustomContact', timezone: 'CustomTimeZone' } as const;

/** The IANA zones the browser knows, each with its offset now: "Asia/Shanghai (UTC+8)". */
function zoneOptions() {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const all = zones.includes('UTC') ? zones : ['UTC', ...zones];
  return all.map((zone) => ({ value: zone, label: `${zone} (${zoneOffsetLabel(zone)})` }));
}

/** The keys of Custom other than the known ones, as indented JSON ('' when none). */
function otherJson(text: string | null): string {
  const custom = parseCustom(text);
  if (!custom) return text ?? '';
  const other = Object.fromEntries(Object.entries(custom).filter(([key]) => !(key in KNOWN)));
  return Object.keys(other).length ? JSON.stringify(other, null, 2) : '';
}

const known = (a: AreaRow, key: keyof typeof KNOWN) => {
  const value = parseCustom(a.Custom)?.[key];
  return typeof value === 'string' ? value : undefined;
};

/** The form's fields back into one Custom JSON: the known keys set, the other data kept; null when empty. */
function customOf(values: Record<string, unknown>): string | null {
  const other =
    typeof values.CustomOther === 'string' && values.CustomOther.trim()
      ? parseCustom(values.CustomOther)
      : {};
  const custom: Record<string, unknown> = { ...(other ?? {}) };
  for (const [key, field] of Object.entries(KNOWN)) {
    const value = values[field];
    if (typeof value === 'string' && value.trim()) custom[key] = value.trim();
    else delete custom[key];
  }
  return Object.keys(custom).length ? JSON.stringify(custom) : null;
}

/** Areas: create, rename, edit their data (address, contact, time zone, other keys as JSON), disable, authorise users, delete when nothing depends on it. */
const config: ListPageConfig<AreaRow> = {
  api: AreaInfoApi,
  read: AREA_MANAGERS,
  write: AREA_MANAGERS,
  actions: { create: true, edit: true, remove: true, status: true },
  // Areas are older than the resource shape: delete and status take the id in the query.
  endpoints: {
    remove: (ids) => Promise.all(ids.map((Id) => call(AreaInfoApi.remove, { query: { Id } }))),
    setStatus: (Id, Disabled) => call(AreaInfoApi.setDisabled, { query: { Id, Disabled } }),
  },
  filters: [
    { name: 'Name', label: 'admin.field.Name', kind: 'text' },
    { name: 'Disabled', label: 'admin.field.Status', kind: 'bool' },
  ],
  columns: [
    { key: 'Id', title: 'admin.field.Id', width: 80 },
    { key: 'Name', title: 'admin.field.Name', width: 200 },
    {
      key: 'Custom',
      title: 'admin.field.Custom',
      ellipsis: true,
      // The area's data as words (address · phone · time zone), not its JSON.
      render: (row) =>
        [known(row, 'address'), known(row, 'contact'), known(row, 'timezone')].filter(Boolean).join(' · ') ||
        '-',
    },
    { key: 'UserCount', title: 'admin.field.UserCount', width: 100 },
    { key: 'Disabled', title: 'admin.field.Status', kind: 'status', width: 100 },
    { key: 'CreatedAt', title: 'admin.field.CreatedAt', kind: 'instant', width: 170 },
  ],
  // Area data as a form (issue 21, item 9): address, contact phone and the time zone picked from the IANA
  // zones; JSON only for keys the form does not know.
  form: {
    width: 640,
    fields: [
      { name: 'Name', label: 'admin.field.Name', kind: 'text', required: true, maxLength: 50 },
      {
        name: KNOWN.address,
        label: 'dashboard.address',
        kind: 'text',
        maxLength: 100,
        wide: true,
        fromItem: (a) => known(a, 'address'),
      },
      {
        name: KNOWN.contact,
        label: 'dashboard.contact',
        kind: 'text',
        maxLength: 30,
        fromItem: (a) => known(a, 'contact'),
      },
      {
        name: KNOWN.timezone,
        label: 'dashboard.timezone',
        kind: 'select',
        options: { kind: 'static', options: () => zoneOptions() },
        extra: 'adminUi.timeZoneHint',
        fromItem: (a) => {
          const zone = known(a, 'timezone');
          return isTimeZone(zone) ? zone : undefined;
        },
      },
      {
        name: 'CustomOther',
        label: 'adminUi.customOther',
        kind: 'json',
        wide: true,
        fromItem: (a) => otherJson(a.Custom),
        extra: 'adminUi.customHint',
      },
    ],
    toBody: (values) => ({
      Name: values.Name,
      ...(values.Id ? { Id: values.Id } : {}),
      Custom: customOf(values),
    }),
  },
  rowActions: [
    { key: 'users', label: 'adminUi.areaUsers', run: (row) => systemDialogs.open('areaUsers', row) },
  ],
};

export default function AreaManagementPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <>
      <ListPage config={config} title={t('route.areaManagement')} />
      <AreaUsersDialog
        area={systemDialogs.use('areaUsers')}
        onClose={() => systemDialogs.close('areaUsers')}
        onSaved={() => void queryClient.invalidateQueries({ queryKey: ['list', AreaInfoApi.name] })}
      />
    </>
  );
}
