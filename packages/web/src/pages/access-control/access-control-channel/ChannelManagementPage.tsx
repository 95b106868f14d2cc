import type { AccessControlChannelItem } from '@gatehouse/shared';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  DIRECTION_IN,
  cardReaderType,
  doorCount,
  doorDirection,
  doorNumber,
  doorNumberAllowed,
  ACCESS_CONTROL_ADMIN,
} from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { TwoLineCell } from '../cells.tsx';
import { CHANNEL_OPTIONS_KEY, deviceOptions, useDevices, type DeviceChoice } from '../options.ts';
import { http } from '../../../core/http.ts';
import { feedback } from '../../../core/feedback.tsx';
import { DoorModeDialog } from './DoorModeDialog.tsx';
import { DoorNumberSelect } from './DoorNumberSelect.tsx';
import '../access-control.css';

type ChannelRow = AccessControlChannelItem;

interface DoorActions {
  openDoor(row: ChannelRow): Promise<unknown>;
  doorMode(row: ChannelRow): void;
}

function channelConfig(
  devices: readonly DeviceChoice[],
  deviceId: number | null,
  door: DoorActions,
): ListPageConfig<ChannelRow> {
  return {
    resource: 'AccessControlChannel',
    read: ACCESS_CONTROL_ADMIN,
    write: ACCESS_CONTROL_ADMIN,
    actions: { create: true, edit: true, remove: true, batchRemove: true, export: true },
    invalidates: [CHANNEL_OPTIONS_KEY],
    ...(deviceId ? { initialFilters: { DeviceId: deviceId } } : {}),
    filters: [
      {
        name: 'DeviceId',
        label: 'accessControl.field.DeviceName',
        kind: 'select',
        options: deviceOptions,
        width: 240,
      },
      { name: 'Keyword', label: 'adminUi.keyword', kind: 'text', placeholder: 'acUi.channel.keyword' },
      {
        name: 'DoorNumber',
        label: 'accessControl.field.DoorNumber',
        kind: 'select',
        options: { kind: 'enum', def: doorNumber },
        width: 120,
      },
      {
        name: 'Direction',
        label: 'accessControl.field.Direction',
        kind: 'select',
        options: { kind: 'enum', def: doorDirection },
        width: 110,
      },
      {
        name: 'ReaderType',
        label: 'accessControl.field.ReaderType',
        kind: 'select',
        options: { kind: 'enum', def: cardReaderType },
        width: 160,
      },
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
        run: door.openDoor,
      },
      {
        key: 'doorMode',
        label: 'acUi.channel.doorMode',
        visible: (row) => row.DoorNumber > 0,
        run: door.doorMode,
      },
    ],
    form: {
      width: 720,
      fields: [
        {
          name: 'DeviceId',
          label: 'accessControl.field.DeviceName',
          kind: 'select',
          required: true,
          options: deviceOptions,
          lockedOnEdit: true,
        },
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
          render: (form) => <DoorNumberSelect form={form} devices={devices} />,
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
        { name: 'Remark', label: 'accessControl.field.Remark', kind: 'textarea', maxLength: 200 },
      ],
      defaults: () => ({
        Direction: DIRECTION_IN,
        ReaderType: 0,
        ...(deviceId ? { DeviceId: deviceId } : {}),
      }),
      // The door must exist on the model: the same shared rule as the server's, before anything is sent.
      check: (body, item) => {
        const id = item ? item.DeviceId : body.DeviceId;
        const type = item ? item.DeviceType : devices.find((d) => d.Id === id)?.Type;
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
    },
  };
}

/**
 * Channel management (AccessControl/Admin): the readers on the doors of the area's controllers. A link from
 * device management opens it on one device (`?DeviceId=`).
 */
export default function ChannelManagementPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const deviceId = Number(params.get('DeviceId')) || null;
  const devices = useDevices();
  const list = devices.data;
  const [modeOf, setModeOf] = useState<ChannelRow | null>(null);
  const config = useMemo(
    () =>
      channelConfig(list ?? [], deviceId, {
        // A refusal (device offline, no answer) is shown by the request client with the server's message.
        openDoor: async (row) => {
          const done = await http.post<{ DoorNumber: number }>('/api/AccessControlChannel/OpenDoor', {
            Id: row.Id,
          });
          feedback.success(t('acUi.channel.doorOpened', { door: done.DoorNumber }));
        },
        doorMode: setModeOf,
      }),
    [list, deviceId, t],
  );
  return (
    <>
      <ListPage key={deviceId ?? 'all'} config={config} title={t('route.channelManagement')} />
      <DoorModeDialog key={modeOf?.Id ?? 0} channel={modeOf} onClose={() => setModeOf(null)} />
    </>
  );
}
