import { useEffect, useRef } from 'react';
import { Form, Select, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FieldControlProps } from '../../../components/list-page/index.ts';
import { useDeviceChannels } from '../options.ts';

interface Props extends FieldControlProps {
  form: FormInstance;
  value?: number | null;
  onChange?: (value: number | null) => void;
}

/** A door (channel) of the device chosen in the same form; cleared when the device changes. */
export function DeviceChannelSelect({ form, value, onChange, id, 'aria-describedby': describedBy }: Props) {
  const { t } = useTranslation();
  const deviceId = Form.useWatch('DeviceId', form) as number | undefined;
  const devices = useDeviceChannels();
  const channels = devices.data?.find((d) => d.DeviceId === deviceId)?.Channels ?? [];
  const previous = useRef(deviceId);
  useEffect(() => {
    if (previous.current !== deviceId && previous.current !== undefined) onChange?.(null);
    previous.current = deviceId;
  }, [deviceId, onChange]);
  return (
    <Select
      id={id}
      aria-describedby={describedBy}
      value={value ?? undefined}
      onChange={(v: number | undefined) => onChange?.(v ?? null)}
      allowClear
      disabled={!deviceId}
      loading={devices.isLoading}
      placeholder={t(deviceId ? 'acUi.fault.wholeDevice' : 'acUi.channel.deviceFirst')}
      options={channels.map((c) => ({ value: c.Id, label: c.Name }))}
      data-testid="field-ChannelId"
    />
  );
}
