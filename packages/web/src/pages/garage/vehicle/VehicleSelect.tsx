import { useEffect, useState } from 'react';
import { Select } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { VehicleApi, type VehicleItem } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import type { FieldControlProps } from '../../../components/list-page/index.ts';

const label = (v: Pick<VehicleItem, 'Plate' | 'OwnerName'>) =>
  v.OwnerName ? `${v.Plate} · ${v.OwnerName}` : v.Plate;

/**
 * A vehicle picked by typing part of its plate, owner, phone or card: an area can hold more vehicles than
 * one list page, so the choices are searched on the server (20 at a time) rather than loaded whole.
 */
export function VehicleSelect({
  value,
  onChange,
  disabled,
  id,
  'aria-describedby': describedBy,
}: FieldControlProps & {
  value?: number;
  onChange?: (value: number | undefined) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);

  const found = useQuery({
    queryKey: ['garage.vehicleSearch', keyword],
    queryFn: () =>
      call(VehicleApi.list, {
        query: {
          PageSize: 20,
          SortField: 'Plate',
          SortOrder: 'asc',
          ...(keyword ? { Keyword: keyword } : {}),
        },
      }),
    placeholderData: keepPreviousData,
  });
  // The chosen vehicle (preset by the vehicle row) may not be among the results: fetch it by id.
  const chosen = useQuery({
    queryKey: ['garage.vehicle', value],
    queryFn: () => call(VehicleApi.get, { params: { Id: value! } }),
    enabled: typeof value === 'number' && !found.data?.Items.some((v) => v.Id === value),
  });

  const items = [...(found.data?.Items ?? [])];
  if (chosen.data && !items.some((v) => v.Id === chosen.data.Id)) items.unshift(chosen.data);
  return (
    <Select<number>
      id={id}
      aria-describedby={describedBy}
      value={value}
      onChange={onChange}
      disabled={disabled}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      loading={found.isFetching}
      placeholder={t('garageUi.vehicle.search')}
      options={items.map((v) => ({ value: v.Id, label: label(v) }))}
      notFoundContent={found.isFetching ? undefined : t('garageUi.vehicle.none')}
      data-testid="field-VehicleId"
    />
  );
}
