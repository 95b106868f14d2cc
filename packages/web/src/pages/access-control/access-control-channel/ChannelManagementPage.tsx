import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  AccessControlChannelApi,
  DIRECTION_IN,
  cardReaderType,
  doorCount,
  doorDirection,
  doorNumber,
  doorNumberAllowed,
  parsePasscodes,
  ACCESS_CONTROL_ADMIN,
  type AccessControlChannelItem,
  type Validator,
} from '@gatehouse/shared';
import { ListPage, type FormDef, type ListPageConfig } from '../../../components/list-page/index.ts';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { queryClient } from '../../../core/query-client.ts';
import { i18next } from '../../../i18n/index.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { TwoLineCell } from '../cells.tsx';
import { dialogState } from '../dialog-state.ts';
import {
  CHANNEL_OPTIONS_KEY,
  type DeviceChoice,
  deviceField,
  deviceFilter,
  deviceModelsKey,
  enumFilter,
} from '../options.ts';
import { accessCheckAction } from '../access-check/links.ts';
import { DoorModeDialog } from './DoorModeDialog.tsx';
import { DoorNumberSelect } from './DoorNumberSelect.tsx';
import '../access-control.css';

type ChannelRow = AccessControlChannelItem;

const api = AccessControlChannelApi;
const doorMode = dialogState<ChannelRow>();

/** Opens the channel's door now; a refusal (offline, no answer) is shown with the server's message. */
async function openDoor(row: ChannelRow) {
  const done = await call(api.openDoor, { body: { Id: row.Id } });
  feedback.success(i18next.t('acUi.channel.doorOpened', { door: done.DoorNumber }));
}

/** The area's controllers with their model, as the door-number select loaded them. */
const loadedDevices = (): readonly DeviceChoice[] =>
  queryClient.getQueryData<DeviceChoice[]>(deviceModelsKey(useAreaStore.getState().current?.Id ?? null)) ??
  [];

const newChannel = () => ({ Direction: DIRECTION_IN, ReaderType: 0 });

/** The passcodes as typed, checked on the field by the API's own rule before anything is sent. */
const passcodesText: Validator = (value) => {
  const parsed = parsePasscodes(String(value ?? ''));
  return parsed.ok ? null : parsed.key;
};

const form: FormDef<ChannelRow> = {
  width: 720,
  fields: [
    { ...deviceField, lockedOnEdit: true },
    {
      name: 'Name',
      label: 'accessControl.field.ChannelName',
      kind: 'text',
      required: true,
      maxLength: 50,
    },
    {
      name: 'DoorNumber',
      label: 'accessControl.field.DoorNumber',
      kind: 'select',
      required: true,
      extra: 'acUi.channel.doorHint',
      render: (form) => <DoorNumberSelect form={form} />,
    },
    {
      name: 'Direction',
      label: 'accessControl.field.Direction',
      kind: 'select',
      required: true,
      options: { kind: 'enum', def: doorDirection },
    },
    {
      name: 'ReaderType',
      label: 'accessControl.field.ReaderType',
      kind: 'select',
      options: { kind: 'enum', def: cardReaderType },
    },
    // The door's rules (shared by its in and out channels), when editing a WG channel with a door.
    { name: 'Keypad', label: 'accessControl.field.Keypad', kind: 'switch', only: 'edit' },
    {
      name: 'PasscodesText',
      label: 'accessControl.field.Passcodes',
      kind: 'password',
      only: 'edit',
      extra: 'acUi.rules.passcodesHint',
      rules: [passcodesText],
      fromItem: () => '',
    },
    {
      name: 'HeldOpenSeconds',
      label: 'accessControl.field.HeldOpenSeconds',
      kind: 'number',
      min: 5,
      max: 3600,
      only: 'edit',
    },
    { name: 'Remark', label: 'accessControl.field.Remark', kind: 'textarea', maxLength: 200 },
  ],
  // Passcodes are write-only: empty keeps them, "-" clears them, else up to four codes separated by commas
  // (parsePasscodes; the field's rule has refused anything else before this runs).
  toBody: (values, item) => {
    const { PasscodesText, Keypad, HeldOpenSeconds, ...rest } = values;
    const parsed = parsePasscodes(String(PasscodesText ?? ''));
    const codes = parsed.ok ? parsed.codes : undefined;
    // Door rules only for a channel with a door, and only what changed (each change reaches the controller).
    const door = item !== null && Number(values.DoorNumber) > 0;
    return {
      ...rest,
      ...(item ? { Id: item.Id } : {}),
      ...(door && Keypad !== undefined && Keypad !== item.Keypad ? { Keypad } : {}),
      ...(door && HeldOpenSeconds != null && HeldOpenSeconds !== item.HeldOpenSeconds
        ? { HeldOpenSeconds }
        : {}),
      ...(door && codes !== undefined ? { Passcodes: codes } : {}),
    };
  },
  // The server names a passcode by its place in the list (Passcodes.0): shown on the field the codes are typed in.
  serverFields: { Passcodes: 'PasscodesText' },
  defaults: newChannel,
  // The door must exist on the model: the same shared rule as the server's, before anything is sent.
  check: (body, item) => {
    const type = item ? item.DeviceType : loadedDevices().find((d) => d.Id === body.DeviceId)?.Type;
    const door = body.DoorNumber as number;
    return type === undefined || doorNumberAllowed(type, door)
      ? []
      : [
          {
            field: 'DoorNumber',
            key: 'accessControl.error.doorBeyondType',
            params: { max: doorCount(type) },
          },
        ];
  },
};

/** The door's access check (the card is typed there) and who can pass it. */
const checkDoor = accessCheckAction<ChannelRow>(
  (row) => ({ ChannelId: row.Id }),
  (row) => row.DoorNumber > 0,
);

/** Channel management (AccessControl/Admin): the readers on the doors of the area's controllers. */
const config: ListPageConfig<ChannelRow> = {
  api,
  read: ACCESS_CONTROL_ADMIN,
  write: ACCESS_CONTROL_ADMIN,
  actions: { create: true, edit: true, remove: true, batchRemove: true, export: true },
  invalidates: [CHANNEL_OPTIONS_KEY],
  filters: [
    { ...deviceFilter, width: 240 },
    { name: 'Keyword', label: 'adminUi.keyword', kind: 'text', placeholder: 'acUi.channel.keyword' },
    enumFilter('DoorNumber', 'accessControl.field.DoorNumber', doorNumber, 120),
    enumFilter('Direction', 'accessControl.field.Direction', doorDirection, 110),
    enumFilter('ReaderType', 'accessControl.field.ReaderType', cardReaderType, 160),
  ],
  columns: [
    {
      key: 'DeviceName',
      title: 'accessControl.field.DeviceName',
      sort: 'Device',
      width: 180,
      render: (row) => <TwoLineCell main={row.DeviceName} sub={row.SerialNumber} />,
    },
    { key: 'Name', title: 'accessControl.field.ChannelName', sort: 'Name', width: 160 },
    {
      key: 'DoorNumber',
      title: 'accessControl.field.DoorNumber',
      kind: 'enum',
      enumDef: doorNumber,
      sort: 'DoorNumber',
      width: 90,
    },
    {
      key: 'Direction',
      title: 'accessControl.field.Direction',
      kind: 'enum',
      enumDef: doorDirection,
      width: 80,
    },
    {
      key: 'ReaderType',
      title: 'accessControl.field.ReaderType',
      kind: 'enum',
      enumDef: cardReaderType,
      width: 140,
    },
    {
      key: 'AuthorizationCount',
      title: 'accessControl.field.AuthorizationCount',
      kind: 'number',
      width: 80,
    },
    { key: 'Remark', title: 'accessControl.field.Remark', ellipsis: true },
  ],
  // A channel with door 0 (unspecified) names no door on the controller: nothing to open or set.
  rowActions: [
    {
      key: 'openDoor',
      label: 'acUi.channel.openDoor',
      confirm: 'acUi.channel.confirmOpenDoor',
      visible: (row) => row.DoorNumber > 0,
      run: openDoor,
    },
    {
      key: 'doorMode',
      label: 'acUi.channel.doorMode',
      visible: (row) => row.DoorNumber > 0,
      run: (row) => doorMode.open(row),
    },
    checkDoor.action,
  ],
  form,
};

const onDevices = new Map<number, ListPageConfig<ChannelRow>>();

/** The list opened on one device (a link from device management): filtered on it, new channels on it. */
function onDevice(deviceId: number | null): ListPageConfig<ChannelRow> {
  if (deviceId === null) return config;
  let found = onDevices.get(deviceId);
  if (!found) {
    found = {
      ...config,
      initialFilters: { DeviceId: deviceId },
      form: { ...form, defaults: () => ({ ...newChannel(), DeviceId: deviceId }) },
    };
    onDevices.set(deviceId, found);
  }
  return found;
}

/**
 * Channel management (AccessControl/Admin). A link from device management opens it on one device
 * (`?DeviceId=`).
 */
export default function ChannelManagementPage() {
  const { t } = useTranslation();
  checkDoor.useFollow();
  const [params] = useSearchParams();
  const deviceId = Number(params.get('DeviceId')) || null;
  const mode = doorMode.useValue();
  return (
    <>
      <ListPage key={deviceId ?? 'all'} config={onDevice(deviceId)} title={t('route.channelManagement')} />
      <DoorModeDialog key={mode?.Id ?? 0} channel={mode} onClose={doorMode.close} />
    </>
  );
}
