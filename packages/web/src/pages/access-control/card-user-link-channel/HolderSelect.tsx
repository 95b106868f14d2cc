import { useState } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useHolderSearch } from '../options.ts';
import { useTypedSearch } from '../typed-search.ts';

interface Props {
  value?: number;
  onChange?: (id: number | undefined) => void;
}

/**
 * One holder of the area found by name, phone or card number. Disabled holders are listed but cannot be
 * picked: a grant to them is refused (their grants wait until they are enabled again).
 */
export function HolderSelect({ value, onChange }: Props) {
  const { t } = useTranslation();
  const [keyword, setTyped] = useTypedSearch();
  const holders = useHolderSearch(keyword);
  // The chosen holder keeps its label while the search shows others.
  const [chosen, setChosen] = useState<{ value: number; label: string } | null>(null);
  const options = (holders.data ?? []).map((h) => ({
    value: h.Id,
    disabled: h.Disabled,
    label: [h.Name, h.Phone, h.Disabled ? `(${t('enum.disabledFlag.true')})` : null]
      .filter(Boolean)
      .join(' '),
  }));
  if (chosen && chosen.value === value && !options.some((o) => o.value === value))
    options.unshift({ ...chosen, disabled: false });
  return (
    <Select
      value={value}
      onChange={(id: number | undefined) => {
        const option = options.find((o) => o.value === id);
        setChosen(option ? { value: option.value, label: option.label } : null);
        onChange?.(id);
      }}
      allowClear
      showSearch={{ filterOption: false, onSearch: setTyped }}
      loading={holders.isFetching}
      placeholder={t('acUi.grant.holderPlaceholder')}
      options={options}
      data-testid="grant-holder"
    />
  );
}
