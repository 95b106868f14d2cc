import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ParkAreaEmergencyApi, type ZoneEmergencyStopItem } from '@gatehouse/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// jsdom has no layout: antd reads media queries and element sizes, which only need to exist.
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
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

// The words are the catalogue keys and their values: the test reads what would be said, in any language.
vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, values?: Record<string, unknown>) => (values ? `${key} ${JSON.stringify(values)}` : key),
  }),
}));
const call = vi.fn();
vi.mock('../src/core/api.ts', () => ({ call }));
const success = vi.fn();
const warning = vi.fn();
vi.mock('../src/core/feedback.tsx', () => ({
  DIALOG_MASK: { closable: false },
  feedback: { success, warning },
}));

const { EmergencyStopBanner } = await import('../src/pages/garage/park-area/EmergencyStopBanner.tsx');
const { EmergencyDialog } = await import('../src/pages/garage/park-area/EmergencyDialog.tsx');
const { openEmergencyDialog, useEmergencyDialog } =
  await import('../src/pages/garage/park-area/emergency.ts');

function stop(fields: Partial<ZoneEmergencyStopItem> = {}): ZoneEmergencyStopItem {
  return {
    Id: 1,
    ParkAreaId: 7,
    ZoneName: 'B1 电动车区',
    Reason: '烟感报警',
    // 16:05 on the area's clock (Asia/Shanghai, the default site zone).
    StoppedAt: '2026-11-01T08:05:00.000Z',
    StoppedBy: 'fire panel (ghk_AbCdEfGh…)',
    StoppedByKind: 'key',
    Stop: {
      SessionsRunning: 3,
      SessionsStopped: 3,
      Sockets: 20,
      SocketsInoperative: 10,
      NotReached: [{ ChargeHostId: 4, HostName: 'B1-02', Outcome: 'notConnected' }],
    },
    ReleasedAt: null,
    ReleasedBy: null,
    ReleasedByKind: null,
    Note: null,
    Release: null,
    ...fields,
  };
}

const wrap = (node: React.ReactNode) => (
  <QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>
);

describe('the emergency stop banner', () => {
  beforeEach(() => call.mockReset());
  afterEach(cleanup);

  it('names each zone under emergency stop, why, who (a key as a key) and since when on the area clock', async () => {
    call.mockResolvedValue({ Items: [stop(), stop({ Id: 2, ParkAreaId: 8, ZoneName: 'B2', Stop: null })] });
    render(wrap(<EmergencyStopBanner />));
    const banner = await screen.findByTestId('emergency-stop-banner');
    expect(call).toHaveBeenCalledWith(ParkAreaEmergencyApi.active);
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.className).toContain('ant-alert-error');
    const text = banner.textContent ?? '';
    expect(text).toContain('garageUi.emergency.banner');
    expect(text).toContain('"zones":"B1 电动车区garageUi.emergency.separatorB2"');
    const [first, second] = banner.querySelectorAll('li');
    expect(first!.textContent).toContain('"reason":"烟感报警"');
    expect(first!.textContent).toContain(
      'garageUi.emergency.byKey {\\"name\\":\\"fire panel (ghk_AbCdEfGh…)\\"}',
    );
    expect(first!.textContent).toMatch(/"since":"2026-11-01 16:05/);
    // The charger it has not reached yet, and why.
    expect(first!.textContent).toContain('garageUi.emergency.bannerMissed');
    expect(first!.textContent).toContain('garageUi.emergency.notReached.notConnected');
    // A stop whose commands are still going out says so.
    expect(second!.textContent).toContain('garageUi.emergency.sending');
  });

  it('shows nothing when no zone is stopped', async () => {
    call.mockResolvedValue({ Items: [] });
    const { container } = render(wrap(<EmergencyStopBanner />));
    await waitFor(() => expect(call).toHaveBeenCalled());
    expect(container.textContent).toBe('');
  });
});

describe('the stop and release dialog', () => {
  beforeEach(() => {
    call.mockReset();
    success.mockReset();
    warning.mockReset();
  });
  afterEach(cleanup);

  it('needs a reason before it stops a zone, then says what the chargers did', async () => {
    call.mockResolvedValue(stop({ StoppedBy: 'bikeadmin', StoppedByKind: 'user' }));
    openEmergencyDialog({ mode: 'stop', zone: { Id: 7, Name: 'B1 电动车区', EmergencyStop: null } });
    render(wrap(<EmergencyDialog />));
    fireEvent.click(await screen.findByTestId('emergency-ok'));
    // Nothing is sent without a reason.
    await new Promise((r) => setTimeout(r, 100));
    expect(call).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId('emergency-text'), { target: { value: ' 烟感报警 ' } });
    fireEvent.click(screen.getByTestId('emergency-ok'));
    await waitFor(() => expect(warning).toHaveBeenCalled());
    expect(call).toHaveBeenCalledWith(ParkAreaEmergencyApi.stop, { body: { Id: 7, Reason: '烟感报警' } });
    const [text] = warning.mock.calls[0]!;
    expect(text).toContain('garageUi.emergency.stopped');
    expect(text).toContain('"inoperative":10');
    expect(text).toContain('garageUi.emergency.missed');
    await waitFor(() => expect(useEmergencyDialog.getState().target).toBeNull());
  });

  it('releases with a required note and reports the sockets back in service', async () => {
    const stopped = stop();
    call.mockResolvedValue({
      ...stopped,
      ReleasedAt: '2026-11-01T09:00:00.000Z',
      ReleasedBy: 'bikeadmin',
      ReleasedByKind: 'user',
      Note: '消防确认安全',
      Release: { Sockets: 18, SocketsOperative: 18, SocketsKeptDisabled: 2, NotReached: [] },
    });
    openEmergencyDialog({ mode: 'release', zone: { Id: 7, Name: 'B1 电动车区', EmergencyStop: stopped } });
    render(wrap(<EmergencyDialog />));
    fireEvent.change(await screen.findByTestId('emergency-text'), { target: { value: '消防确认安全' } });
    fireEvent.click(screen.getByTestId('emergency-ok'));
    await waitFor(() => expect(success).toHaveBeenCalled());
    expect(call).toHaveBeenCalledWith(ParkAreaEmergencyApi.release, {
      body: { Id: 7, Note: '消防确认安全' },
    });
    expect(success.mock.calls[0]![0]).toContain('"kept":2');
  });
});
