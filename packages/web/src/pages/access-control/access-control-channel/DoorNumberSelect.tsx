import { Form, Select, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { doorNumber, doorNumberAllowed } from '@gatehouse/shared';
import type { FieldControlProps } from '../../../components/list-page/index.ts';
import { useDevices } from '../options.ts';

interface Props extends FieldControlProps {
  form: FormInstance;
  value?: number;
  onChange?: (value: number | undefined) => void;
}

/**
 * The door numbers the chosen device's model has (0, unspecified, always; then 1 to its door count), by the
 * shared rule the server applies. Without a device chosen there is nothing to pick yet.
 */
export function DoorNumberSelect({ form, value, onChange, id, 'aria-describedby': describedBy }: Props) {
  const { t } = useTranslation();
  const deviceId = Form.useWatch('DeviceId', form) as number | undefined;
  const device = useDevices().data?.find((d) => d.Id === deviceId);
  const options = device
    ? doorNumber.items
        .filter((item) => doorNumberAllowed(device.Type, item.value))
        .map((item) => ({ value: item.value, label: String(t(item.key as never)) }))
    : [];
  return (
    <Select
      id={id}
      aria-describedby={describedBy}
      value={value}
      onChange={onChange}
      options={options}
      disabled={!device}
      placeholder={t(device ? 'list.choose' : 'acUi.channel.deviceFirst')}
      data-testid="field-DoorNumber"
    />
  );
}
