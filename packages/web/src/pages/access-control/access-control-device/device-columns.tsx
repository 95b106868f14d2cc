import { accessControlProtocol, accessControlType, type AccessControlDeviceItem } from '@gatehouse/shared';
import type { ColumnDef, FilterDef } from '../../../components/list-page/index.ts';
import { TwoLineCell } from '../cells.tsx';
import { enumFilter } from '../options.ts';

/** Protocol and model: filters and columns alike on device management and device registration. */
export const deviceModelFilters: FilterDef[] = [
  enumFilter('Protocol', 'accessControl.field.Protocol', accessControlProtocol, 120),
  enumFilter('Type', 'accessControl.field.Type', accessControlType, 150),
];

export function deviceModelColumns<T extends AccessControlDeviceItem>(): ColumnDef<T>[] {
  return [
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
      // The model, and how many doors it has (the channel form's door numbers).
      render: (row, tr) => (
        <TwoLineCell
          main={tr(`enum.accessControlType.${row.Type}` as never)}
          sub={tr('acUi.device.doors', { count: row.DoorCount })}
        />
      ),
    },
  ];
}
