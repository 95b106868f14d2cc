import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { accessControlProtocol, accessControlType } from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { TwoLineCell } from '../cells.tsx';
import { AC_ADMIN } from '../codes.ts';
import { CHANNEL_OPTIONS_KEY, DEVICE_MODELS_KEY, DEVICE_OPTIONS_KEY } from '../options.ts';
import '../access-control.css';

interface DeviceRow {
  Id: number;
  SerialNumber: string;
  Name: string;
  Protocol: number;
  Type: number;
  DoorCount: number;
  Ip: string | null;
  Port: number | null;
  Location: string | null;
  Remark: string | null;
  Disabled: boolean;
  ChannelCount: number;
  [key: string]: unknown;
}

/**
 * Device management (AccessControl/Admin): the area's controllers. An edit changes only what describes the
 * device on site (name, address, location, remark) and the enabled flag; serial, protocol and model belong
 * to the registration, so channels, authorisations and records never change with an edit.
 */
export default function DeviceManagementPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const config = useMemo<ListPageConfig<DeviceRow>>(
    () => ({
      resource: 'AccessControlDevice',
      read: AC_ADMIN,
      write: AC_ADMIN,
      actions: { edit: true, status: true, export: true },
      invalidates: [DEVICE_OPTIONS_KEY, DEVICE_MODELS_KEY, CHANNEL_OPTIONS_KEY],
      filters: [
        {
          name: 'Keyword',
          label: 'adminUi.keyword',
          kind: 'text',
          placeholder: 'acUi.device.manageKeyword',
          width: 220,
        },
        {
          name: 'Protocol',
          label: 'accessControl.field.Protocol',
          kind: 'select',
          options: { kind: 'enum', def: accessControlProtocol },
          width: 120,
        },
        {
          name: 'Type',
          label: 'accessControl.field.Type',
          kind: 'select',
          options: { kind: 'enum', def: accessControlType },
          width: 150,
        },
        { name: 'Disabled', label: 'accessControl.field.Status', kind: 'bool' },
      ],
      columns: [
        {
          key: 'Name',
          title: 'accessControl.field.DeviceName',
          sort: 'Name',
          width: 180,
          render: (row) => <TwoLineCell main={row.Name} sub={row.SerialNumber} />,
        },
        {
          key: 'Protocol',
          title: 'accessControl.field.Protocol',
          kind: 'enum',
          enumDef: accessControlProtocol,
          width: 80,
        },
        {
          key: 'Type',
          title: 'accessControl.field.Type',
          width: 140,
          render: (row, tr) => (
            <TwoLineCell
              main={tr(`enum.accessControlType.${row.Type}` as never)}
              sub={tr('acUi.device.doors', { count: row.DoorCount })}
            />
          ),
        },
        {
          key: 'Ip',
          title: 'accessControl.field.Ip',
          width: 170,
          render: (row) => (row.Ip ? `${row.Ip}${row.Port ? `:${row.Port}` : ''}` : '-'),
        },
        { key: 'Location', title: 'accessControl.field.Location', ellipsis: true },
        { key: 'ChannelCount', title: 'accessControl.field.ChannelCount', kind: 'number', width: 80 },
        { key: 'Disabled', title: 'accessControl.field.Status', kind: 'status', width: 100 },
      ],
      form: {
        width: 720,
        fields: [
          {
            name: 'SerialNumber',
            label: 'accessControl.field.SerialNumber',
            kind: 'text',
            lockedOnEdit: true,
          },
          {
            name: 'Type',
            label: 'accessControl.field.Type',
            kind: 'select',
            options: { kind: 'enum', def: accessControlType },
            lockedOnEdit: true,
          },
          {
            name: 'Name',
            label: 'accessControl.field.DeviceName',
            kind: 'text',
            required: true,
            maxLength: 50,
          },
          { name: 'Location', label: 'accessControl.field.Location', kind: 'text', maxLength: 100 },
          {
            name: 'Ip',
            label: 'accessControl.field.Ip',
            kind: 'text',
            maxLength: 15,
            placeholder: 'acUi.device.ipPlaceholder',
          },
          { name: 'Port', label: 'accessControl.field.Port', kind: 'number', min: 1, max: 65535 },
          { name: 'Remark', label: 'accessControl.field.Remark', kind: 'textarea', maxLength: 200 },
        ],
      },
      rowActions: [
        {
          key: 'channels',
          label: 'acUi.device.channels',
          run: (row) => navigate(`/accesscontrol/channelManagement?DeviceId=${row.Id}`),
        },
      ],
    }),
    [navigate],
  );
  return <ListPage config={config} title={t('route.deviceManagement')} />;
}
