import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CardApi } from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import type { FieldControlProps } from '../../../components/list-page/index.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { useTypedSearch } from '../typed-search.ts';

/** A card as the select holds it: its id and printed number (antd's labelInValue). */
export interface CardValue {
  value: number;
  label: string;
}

interface Props extends FieldControlProps {
  value?: CardValue[];
  onChange?: (value: CardValue[]) => void;
}

/**
 * What the empty list says: with a number typed that matches no free card, where cards come from (a
 * SuperAdmin registers them and assigns them to the area), since a holder's dialog cannot create one.
 */
export function noCardText(
  typed: string,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  const card = typed.trim();
  return card ? t('acUi.holder.unknownCard', { card }) : t('acUi.holder.noFreeCard');
}

/**
 * The holder's cards: the free cards of the area (searched by the digits typed) plus those the holder has
 * now. A card belongs to one holder at a time, so taken cards never appear; the server checks it again.
 */
export function FreeCardSelect({ value, onChange, id, 'aria-describedby': describedBy }: Props) {
  const { t } = useTranslation();
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const [keyword, setTyped] = useTypedSearch();
  const free = useQuery({
    queryKey: ['ac-free-cards', areaId, keyword],
    queryFn: () =>
      call(CardApi.list, {
        query: {
          Held: false,
          PageSize: 50,
          SortField: 'CardNumber',
          SortOrder: 'asc',
          ...(keyword ? { Keyword: keyword } : {}),
        },
      }),
  });
  const chosen = new Set((value ?? []).map((c) => c.value));
  const options = [
    ...(value ?? []).map((c) => ({ value: c.value, label: c.label })),
    ...(free.data?.Items ?? [])
      .filter((c) => !chosen.has(c.Id))
      .map((c) => ({
        value: c.Id,
        label: c.CardNumber,
        title: String(t(`enum.cardType.${c.CardType}` as never)),
      })),
  ];
  return (
    <Select
      id={id}
      aria-describedby={describedBy}
      mode="multiple"
      labelInValue
      value={value}
      onChange={(next: CardValue[]) =>
        onChange?.(next.map((c) => ({ value: c.value, label: String(c.label) })))
      }
      options={options}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      loading={free.isFetching}
      notFoundContent={
        free.isFetching ? undefined : (
          <span data-testid="no-free-card">
            {noCardText(keyword, t as unknown as Parameters<typeof noCardText>[1])}
          </span>
        )
      }
      placeholder={t('acUi.holder.cardsPlaceholder')}
      data-testid="field-CardIds"
    />
  );
}
