import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import type { GarageSummary } from '@gatehouse/shared';
import { MemoryRouter } from 'react-router';
import { afterEach, expect, it, vi } from 'vitest';

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

vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, values?: Record<string, unknown>) => (values ? `${key} ${JSON.stringify(values)}` : key),
  }),
}));
const call = vi.fn();
vi.mock('../src/core/api.ts', () => ({ call }));

const { default: GaragePanel } = await import('../src/pages/garage/garage-dashboard/GaragePanel.tsx');

afterEach(cleanup);

/*
 * The dashboard's socket figures add up to the total (issue 27: six disabled sockets were in no figure):
 * every socket is in exactly one of the figures the panel shows.
 */
it('shows every socket in one figure: occupied, idle, faulty, disabled and offline add up to the total', async () => {
  const summary: GarageSummary = {
    TimeZone: 'Asia/Shanghai',
    Sockets: { Total: 140, Occupied: 31, Idle: 44, Fault: 7, Disabled: 6, Offline: 52, ByState: [] },
    Hosts: { Total: 14, Online: 5 },
    Zones: { Total: 4, Capacity: 550, Parked: 24 },
    OpenSessions: 20,
    OpenSessionsOffline: 0,
    Today: { Sessions: 0, EnergyWh: 0, ChargingRevenueCents: 0, ParkOrders: 0, ParkingRevenueCents: 0 },
    ZonePower: [],
  };
  call.mockResolvedValue(summary);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <GaragePanel />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  // Generous: the machine running the suite may be busy.
  const occupied = await screen.findByTestId('figure-sockets', {}, { timeout: 10_000 });
  const others = screen.getByTestId('figure-idle-fault');
  const numbers = (text: string) => (text.match(/\d+/g) ?? []).map(Number);
  // "31 / 140": the occupied and the total.
  const [shownOccupied, total] = numbers(occupied.textContent ?? '');
  expect(total).toBe(140);
  const parts = [shownOccupied!, ...numbers(others.textContent ?? '')];
  expect(parts.reduce((sum, n) => sum + n, 0)).toBe(total);
  expect(parts).toEqual([31, 44, 7, 6, 52]);
});
