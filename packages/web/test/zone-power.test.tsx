import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { ZonePower } from '@gatehouse/shared';
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

// The words are the catalogue keys and their values: the test reads what would be said, in any language.
vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, values?: Record<string, unknown>) => (values ? `${key} ${JSON.stringify(values)}` : key),
  }),
}));

const { ZonePowerBar, ZonePowerList } = await import('../src/pages/garage/park-area/ZonePower.tsx');

afterEach(cleanup);

const power = (over: Partial<ZonePower>): ZonePower => ({
  BudgetW: 1000,
  DrawW: 600,
  MeteredSockets: 3,
  UnknownSessions: 0,
  State: 'under',
  OverSince: null,
  LimitedSessions: 0,
  ...over,
});

/*
 * A zone's draw against its power budget (issue 30): the figure, a bar against the budget, the state when it
 * matters (at the budget new charging is refused; above it Gatehouse acts), and what the figure leaves out said
 * as such, never guessed.
 */
// The first antd render warms its styles up: slow on a busy machine.
describe('ZonePowerBar', { timeout: 30_000 }, () => {
  it('shows the draw against the budget, and its bar, with no state tag while under it', () => {
    render(<ZonePowerBar power={power({})} />);
    const bar = screen.getByTestId('zone-power');
    expect(bar.dataset.state).toBe('under');
    expect(screen.getByTestId('zone-power-draw').textContent).toBe(
      'garageUi.zonePower.ofBudget {"draw":600,"budget":1000}',
    );
    expect(within(bar).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('60');
    expect(screen.queryByTestId('zone-power-state')).toBeNull();
    expect(bar.querySelector('[data-note="metered"]')?.textContent).toBe(
      'garageUi.zonePower.metered {"n":3,"seconds":90}',
    );
  });

  it('at the budget: an orange tag saying new charging is refused', () => {
    render(<ZonePowerBar power={power({ DrawW: 1000, State: 'atBudget', LimitedSessions: 2 })} />);
    const tag = screen.getByTestId('zone-power-state');
    expect(tag.textContent).toBe('garageUi.zonePower.state.atBudget');
    expect(tag.className).toContain('orange');
    expect(screen.getByTestId('zone-power').querySelector('[data-note="limited"]')?.textContent).toContain(
      '"n":2',
    );
  });

  it('above it: a red tag, a full bar in the exception colour, and since when', () => {
    render(
      <ZonePowerBar power={power({ DrawW: 1250, State: 'over', OverSince: '2026-11-01T08:00:05.000Z' })} />,
    );
    expect(screen.getByTestId('zone-power-state').className).toContain('red');
    const bar = screen.getByTestId('zone-power');
    expect(within(bar).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(bar.querySelector('.ant-progress-status-exception')).not.toBeNull();
    expect(bar.querySelector('[data-note="overSince"]')?.textContent).toContain(
      'garageUi.zonePower.overSince',
    );
  });

  it('says how many running sessions have no recent reading instead of counting them', () => {
    render(<ZonePowerBar power={power({ DrawW: 0, MeteredSockets: 0, UnknownSessions: 2 })} />);
    const bar = screen.getByTestId('zone-power');
    expect(bar.querySelector('[data-note="unknown"]')?.textContent).toBe(
      'garageUi.zonePower.unknown {"n":2}',
    );
    expect(bar.querySelector('[data-note="metered"]')).toBeNull();
  });

  it('without a budget: the draw alone, no bar', () => {
    render(<ZonePowerBar power={power({ BudgetW: null, State: 'none', DrawW: 420 })} />);
    expect(screen.getByTestId('zone-power-draw').textContent).toBe(
      'garageUi.zonePower.noBudget {"draw":420}',
    );
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});

describe('ZonePowerList (dashboard)', { timeout: 30_000 }, () => {
  it('lists the zones with a budget, each linking to its sockets; nothing when there are none', () => {
    const { container } = render(
      <MemoryRouter>
        <ZonePowerList
          zones={[
            { ...power({ DrawW: 1100, State: 'over' }), ParkAreaId: 7, ZoneName: 'A 区' },
            { ...power({}), ParkAreaId: 8, ZoneName: 'B 区' },
          ]}
        />
      </MemoryRouter>,
    );
    const rows = container.querySelectorAll('li');
    expect([...rows].map((r) => r.dataset.zone)).toEqual(['7', '8']);
    expect(
      within(rows[0] as HTMLElement)
        .getByRole('link')
        .getAttribute('href'),
    ).toBe('/Bicycle/chargeEquipment?ParkAreaId=7');
    cleanup();
    const empty = render(
      <MemoryRouter>
        <ZonePowerList zones={[]} />
      </MemoryRouter>,
    );
    expect(empty.container.textContent).toBe('');
  });
});
