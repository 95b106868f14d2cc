import { formatCents, formatKWh } from './format.ts';
import type { PriceLine } from './tariff.ts';

/**
 * An itemised order's lines as people read them, in one place for the order screen and the order export:
 * what each line is (its catalogue label, garage.priceLine.<Kind>), how much, at what unit price, for what.
 */

/** A catalogue lookup in the reader's language (i18next's `t` on a screen, `translate(lang, …)` on the server). */
export type LineTranslator = (key: string, params?: Record<string, string | number>) => string;

export interface PriceLineText {
  /** "Period 22:00–08:00", "Power band 2 (200–500 W, sustained 360 W)"… */
  label: string;
  /** "0.540 kWh", "4 h", "55 min"; empty for a fee without a quantity (service, cap). */
  quantity: string;
  /** "¥0.60 / kWh"; empty for the cap line. */
  unitPrice: string;
  /** "¥0.32", "-¥0.26". */
  amount: string;
}

/** Cents as the order shows money: ¥1.50, -¥0.26. */
export function yuan(cents: number): string {
  return cents < 0 ? `-¥${formatCents(-cents)}` : `¥${formatCents(cents)}`;
}

const PER_UNIT_KEYS: Record<NonNullable<PriceLine['PriceUnit']>, string> = {
  hour: 'unit.hour',
  kWh: 'unit.kWh',
  use: 'unit.times',
};

export function priceLineText(line: PriceLine, t: LineTranslator): PriceLineText {
  const params: Record<string, string | number> = { ...line.LabelParams };
  // The cap's label names the cap in yuan, not in the cents the line carries.
  if (typeof params.CapCents === 'number') params.Cap = yuan(params.CapCents);
  const quantity =
    line.QuantityUnit === null
      ? ''
      : line.QuantityUnit === 'Wh'
        ? t('garage.priceQuantity.kWh', { kWh: formatKWh(line.Quantity) })
        : t(`garage.priceQuantity.${line.QuantityUnit}`, { n: line.Quantity });
  const unitPrice =
    line.Kind === 'cap'
      ? ''
      : line.PriceUnit === null
        ? yuan(line.UnitPriceCents)
        : `${yuan(line.UnitPriceCents)} / ${t(PER_UNIT_KEYS[line.PriceUnit])}`;
  return { label: t(line.LabelKey, params), quantity, unitPrice, amount: yuan(line.AmountCents) };
}

/** One line as one phrase: "Period 22:00–08:00: 0.540 kWh × ¥0.60 / kWh = ¥0.32". */
export function priceLinePhrase(line: PriceLine, t: LineTranslator): string {
  const text = priceLineText(line, t);
  const times = text.quantity ? `${text.quantity} × ${text.unitPrice} = ` : '';
  return `${text.label}: ${times}${text.amount}`;
}
