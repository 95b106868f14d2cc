import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ChargeRuleItem, PriceLineItem } from '@gatehouse/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FieldDef, Row } from '../src/components/list-page/index.ts';

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

// The words are the catalogue keys and their values: the test reads what would be said, in any language.
vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, values?: Record<string, unknown>) =>
      values && !('defaultValue' in values) ? `${key} ${JSON.stringify(values)}` : key,
  }),
}));

const { formBody } = await import('../src/components/list-page/FormDialog.tsx');
const { ruleForm } = await import('../src/pages/garage/charge-rule/rule-form.tsx');
const { PowerBandsInput, TimeOfDayInput } =
  await import('../src/pages/garage/charge-rule/DimensionInputs.tsx');
const { PriceLines } = await import('../src/pages/garage/charge-order/PriceLines.tsx');

afterEach(cleanup);

type Values = Record<string, unknown>;
const form = ruleForm<Row>();
const shown = (values: Values) =>
  form.fields.filter((f: FieldDef<Row>) => !f.visible || f.visible(values)).map((f) => f.name);
const DIMENSIONS = ['PowerBands', 'TimeOfDay', 'IdleFeeCentsPerHour', 'IdleGraceMinutes', 'ServiceFeeCents'];

describe('the charge rule dialog edits the tariff dimensions (issue 30)', () => {
  it('shows each dimension on the rules it fits: bands timed or metered, periods metered, fees on charging', () => {
    expect(shown({ ChargeType: 3, TemporaryChargeType: 2 })).toEqual(expect.arrayContaining(DIMENSIONS));
    expect(shown({ ChargeType: 3, TemporaryChargeType: 1 })).not.toContain('TimeOfDay');
    expect(shown({ ChargeType: 3, TemporaryChargeType: 1 })).toContain('PowerBands');
    expect(shown({ ChargeType: 3, TemporaryChargeType: 3 })).not.toContain('PowerBands');
    for (const type of [0, 1, 2])
      for (const name of DIMENSIONS)
        expect(shown({ ChargeType: type, TemporaryChargeType: 1 })).not.toContain(name);
  });

  it('sends the lists in cents, and on an update of another type every dimension as null', () => {
    const body = formBody(
      form,
      {
        Name: '分时',
        ChargeType: 3,
        TemporaryChargeType: 2,
        UnitPriceCents: 1,
        PowerBands: [{ UpToW: 200, PriceCents: 10 }],
        TimeOfDay: [{ From: '22:00', To: '08:00', PriceCentsPerKWh: 60 }],
        IdleFeeCentsPerHour: 1.2,
        IdleGraceMinutes: 15,
        ServiceFeeCents: 0.5,
      },
      null,
    );
    expect(body).toMatchObject({
      UnitPriceCents: 100,
      PowerBands: [{ UpToW: 200, PriceCents: 10 }],
      TimeOfDay: [{ From: '22:00', To: '08:00', PriceCentsPerKWh: 60 }],
      IdleFeeCentsPerHour: 120,
      IdleGraceMinutes: 15,
      ServiceFeeCents: 50,
    });
    const parking = formBody(
      form,
      { Name: '临停', ChargeType: 0, TemporaryChargeType: 1, UnitPriceCents: 1, PowerBands: [{ UpToW: 1 }] },
      { Id: 4 } as Row,
    );
    expect(parking).toMatchObject(Object.fromEntries(DIMENSIONS.map((f) => [f, null])));
  });

  it('checks bands and periods with the shared rule, naming the band and the periods', () => {
    const check = (values: Values) => form.check!(formBody(form, values, null), null);
    const base = { Name: 'x', ChargeType: 3, TemporaryChargeType: 2, UnitPriceCents: 1 };
    expect(
      check({
        ...base,
        PowerBands: [
          { UpToW: 500, PriceCents: 20 },
          { UpToW: 200, PriceCents: 10 },
        ],
      }),
    ).toEqual([
      { field: 'PowerBands', key: 'garage.validation.bandsAscending', params: { band: 2, previous: 500 } },
    ]);
    expect(
      check({
        ...base,
        TimeOfDay: [
          { From: '08:00', To: '22:00', PriceCentsPerKWh: 150 },
          { From: '21:00', To: '08:00', PriceCentsPerKWh: 60 },
        ],
      }),
    ).toEqual([
      {
        field: 'TimeOfDay',
        key: 'garage.validation.periodsOverlap',
        params: { first: '08:00–22:00', second: '21:00–08:00' },
      },
    ]);
  });

  it('adds and removes bands, a new one above the last', () => {
    const onChange = vi.fn();
    render(<PowerBandsInput value={[{ UpToW: 200, PriceCents: 10 }]} onChange={onChange} />);
    fireEvent.click(screen.getByTestId('band-add'));
    expect(onChange).toHaveBeenLastCalledWith([
      { UpToW: 200, PriceCents: 10 },
      { UpToW: 300, PriceCents: 0 },
    ]);
    fireEvent.click(screen.getByText('garageUi.rule.remove'));
    expect(onChange).toHaveBeenLastCalledWith([]);
  });

  it('adds a period for the rest of the day and names the time no period covers', () => {
    const onChange = vi.fn();
    render(
      <TimeOfDayInput value={[{ From: '08:00', To: '22:00', PriceCentsPerKWh: 150 }]} onChange={onChange} />,
    );
    expect(screen.getByTestId('period-uncovered').textContent).toBe(
      'garageUi.rule.uncovered {"times":"22:00–08:00"}',
    );
    fireEvent.click(screen.getByTestId('period-add'));
    expect(onChange).toHaveBeenLastCalledWith([
      { From: '08:00', To: '22:00', PriceCentsPerKWh: 150 },
      { From: '22:00', To: '08:00', PriceCentsPerKWh: 0 },
    ]);
  });
});

describe("the charging order's itemised lines", () => {
  const line = (more: Partial<PriceLineItem>): PriceLineItem => ({
    Kind: 'period',
    LabelKey: 'garage.priceLine.period',
    LabelParams: {},
    Quantity: 0,
    QuantityUnit: 'Wh',
    UnitPriceCents: 0,
    PriceUnit: 'kWh',
    AmountCents: 0,
    ...more,
  });
  const lines = [
    line({ LabelParams: { From: '22:00', To: '08:00' }, Quantity: 540, UnitPriceCents: 60, AmountCents: 32 }),
    line({
      Kind: 'service',
      LabelKey: 'garage.priceLine.service',
      Quantity: 1,
      QuantityUnit: null,
      PriceUnit: null,
      UnitPriceCents: 50,
      AmountCents: 50,
    }),
    line({
      Kind: 'cap',
      LabelKey: 'garage.priceLine.cap',
      LabelParams: { CapCents: 70 },
      Quantity: 1,
      QuantityUnit: null,
      PriceUnit: null,
      UnitPriceCents: -12,
      AmountCents: -12,
    }),
  ];

  it('shows each line in yuan and the total, and says when it is an estimate', () => {
    render(<PriceLines lines={lines} amountCents={70} estimated />);
    const rows = [...document.querySelectorAll('[data-testid="price-lines"] tbody tr')].map((r) =>
      [...r.querySelectorAll('td')].map((c) => c.textContent),
    );
    expect(rows).toEqual([
      [
        'garage.priceLine.period {"From":"22:00","To":"08:00"}',
        'garage.priceQuantity.kWh {"kWh":"0.540"}',
        '¥0.60 / unit.kWh',
        '¥0.32',
      ],
      ['garage.priceLine.service {}', '', '¥0.50', '¥0.50'],
      ['garage.priceLine.cap {"CapCents":70,"Cap":"¥0.70"}', '', '', '-¥0.12'],
    ]);
    expect(screen.getByTestId('price-lines-total').textContent).toBe('¥0.70');
    expect(screen.getByText('garageUi.order.linesEstimated')).toBeTruthy();
  });

  it('says an order that costs nothing has nothing to pay, and an order without lines shows none', () => {
    render(<PriceLines lines={[]} amountCents={0} estimated={false} />);
    expect(screen.getByTestId('price-lines-none').textContent).toBe('garageUi.order.noLines');
    cleanup();
    const { container } = render(<PriceLines lines={null} amountCents={100} estimated={false} />);
    expect(container.textContent).toBe('-');
  });

  it('the rule list says a rule has no dimensions with a dash', async () => {
    const { RuleDimensions } = await import('../src/pages/garage/charge-rule/RuleDimensions.tsx');
    const rule = {
      PowerBands: null,
      TimeOfDay: null,
      IdleFeeCentsPerHour: null,
      IdleGraceMinutes: null,
      ServiceFeeCents: 50,
    } as unknown as ChargeRuleItem;
    render(<RuleDimensions rule={rule} />);
    expect(screen.getByTestId('rule-dimensions').textContent).toBe('garage.field.ServiceFee: ¥0.50');
  });
});
