import { cleanup, render } from '@testing-library/react';
import type { ChargeRecordItem, PriceLineItem } from '@gatehouse/shared';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

// jsdom has no layout: antd reads media queries, which only need to exist.
window.matchMedia ??= ((query: string) => ({
  matches: false,
  media: query,
  addListener: () => {},
  removeListener: () => {},
  addEventListener: () => {},
  removeEventListener: () => {},
  onchange: null,
  dispatchEvent: () => false,
})) as unknown as typeof window.matchMedia;

// The words are the catalogue keys: the test reads which words a cell says.
const t = (key: string) => key;
vi.mock('react-i18next', () => ({ useTranslation: () => ({ t }) }));

const { chargeRecordList } = await import('../src/pages/garage/charge-record/ChargeRecordsPage.tsx');

afterEach(cleanup);

type Render = (row: ChargeRecordItem, tr: typeof t) => ReactNode;
/** A column of the charging records (`detail`: the one in the row's expanded detail). */
const column = (key: string, detail: boolean) =>
  chargeRecordList.columns.find((c) => c.key === key && Boolean(c.secondary) === detail) as {
    render: Render;
  };
const cell = (key: string, detail: boolean, row: Partial<ChargeRecordItem>) =>
  render(<div>{column(key, detail).render({ Open: false, ...row } as ChargeRecordItem, t)}</div>).container;

const LINES: PriceLineItem[] = [
  {
    Kind: 'band',
    LabelKey: 'garage.priceLine.band',
    LabelParams: { Band: 2, FromW: 200, UpToW: 400, SustainedW: 300 },
    Quantity: 3,
    QuantityUnit: 'hour',
    UnitPriceCents: 60,
    PriceUnit: 'hour',
    AmountCents: 180,
  },
  {
    Kind: 'service',
    LabelKey: 'garage.priceLine.service',
    LabelParams: {},
    Quantity: 1,
    QuantityUnit: null,
    UnitPriceCents: 50,
    PriceUnit: null,
    AmountCents: 50,
  },
];

// Issue 30, "the user told": a card's charging history (the records filtered by its card) says a safety stop as
// one, with what it meant for the rider, and what the order charged line by line.
describe("a card holder's charging history", () => {
  it('tells the three safety stops Gatehouse makes, and a forced power-off, as red tags; other ends as themselves', () => {
    for (const reason of [3, 8, 9, 10]) {
      const shown = cell('StopReason', false, { StopReason: reason });
      expect(shown.textContent).toBe(`enum.chargeStopReason.${reason}`);
      expect(shown.querySelector('[data-testid="stop-safety"]')?.getAttribute('data-stop-reason')).toBe(
        String(reason),
      );
      cleanup();
    }
    for (const reason of [0, 1, 5]) {
      const shown = cell('StopReason', false, { StopReason: reason });
      expect(shown.textContent).toBe(`enum.chargeStopReason.${reason}`);
      expect(shown.querySelector('[data-testid="stop-safety"]')).toBeNull();
      cleanup();
    }
  });

  it("opens on the line of how it ended: a safety stop's reason and what it means, any other end its reason", () => {
    for (const reason of [8, 9, 10]) {
      const line = cell('StopReason', true, { StopReason: reason });
      expect(line.querySelector('[data-testid="stop-line"]')).not.toBeNull();
      expect(line.textContent).toBe(
        `garageUi.record.safetyStopenum.chargeStopReason.${reason}garageUi.record.colongarageUi.record.why.${reason}`,
      );
      cleanup();
    }
    const full = cell('StopReason', true, { StopReason: 0 });
    expect(full.textContent).toBe('enum.chargeStopReason.0');
    expect(full.querySelector('[data-testid="stop-line"]')).toBeNull();
    cleanup();
    expect(cell('StopReason', true, { Open: true, StopReason: null }).textContent).toBe('garageUi.charging');
  });

  it("shows the order's itemised lines adding up to its amount, and a dash for a session without an order", () => {
    const shown = cell('Lines', true, { Lines: LINES, AmountCents: 230, Estimated: false });
    const rows = [...shown.querySelectorAll('[data-testid="price-lines"] tbody tr')];
    expect(rows).toHaveLength(2);
    expect(shown.querySelector('[data-testid="price-lines-total"]')?.textContent).toBe('¥2.30');
    cleanup();
    const none = cell('Lines', true, { Lines: null, AmountCents: null, Estimated: false });
    expect(none.querySelector('[data-testid="price-lines"]')).toBeNull();
    expect(none.textContent).toBe('-');
  });
});
