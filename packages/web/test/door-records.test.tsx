import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DoorMonitorReply, DoorOpeningRecordItem } from '@gatehouse/shared';

/*
 * Door-opening records on the screens that show them (issue 27): a controller's door event or alarm is not a card
 * swipe. The ring stores them with the empty card 0000000000 and a result; read as swipes, a push-button exit was
 * "passed 0000000000" and a forced door "refused 0000000000" on the door monitor. One formatter
 * (door-opening-record/record-text.tsx) for the monitor's feed and the dashboard's latest events.
 */

// Keys with their values, so a test reads what was asked for without a catalogue.
vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, options?: Record<string, unknown>) =>
      options ? `${key}${JSON.stringify(options)}` : key,
  }),
}));
const get = vi.fn();
vi.mock('../src/core/api.ts', () => ({
  call: (op: { method: string; path: string }) => get(op.path),
}));
vi.mock('../src/core/feedback.tsx', () => ({ feedback: { success: vi.fn() } }));
type Handler = (message: { Type: string; At: string; [key: string]: unknown }) => void;
const hub: { types: readonly string[]; handler?: Handler }[] = [];
vi.mock('../src/core/hub.ts', () => ({
  useHubEvents: (types: readonly string[], handler: Handler) => {
    hub.push({ types, handler });
  },
}));

const { useAreaStore } = await import('../src/stores/area.ts');
const { default: DoorMonitorPage } =
  await import('../src/pages/access-control/door-monitor/DoorMonitorPage.tsx');
const { default: LatestEvents } = await import('../src/pages/dashboard/LatestEvents.tsx');
const { default: AccessControlPanel } =
  await import('../src/pages/access-control/access-control-dashboard/AccessControlPanel.tsx');

const EMPTY_CARD = '0000000000';

function record(overrides: Partial<DoorOpeningRecordItem>): DoorOpeningRecordItem {
  return {
    Id: 1,
    At: '2026-11-29T04:17:29.000Z',
    CardNumber: EMPTY_CARD,
    CardValue: 0,
    CardUserId: null,
    HolderName: null,
    DeviceId: 7,
    DeviceName: '东门控制器',
    ChannelId: 11,
    ChannelName: '1号门 进',
    DoorNumber: 1,
    Direction: 1,
    Result: true,
    Reason: 0,
    EventType: 2,
    EventReason: 20,
    RecordIndex: null,
    ...overrides,
  };
}

const button = record({ Id: 3, EventType: 2, EventReason: 20, Result: true });
const forced = record({
  Id: 2,
  EventType: 3,
  EventReason: 38,
  Result: false,
  At: '2026-11-29T04:17:20.000Z',
});
const swipe = record({
  Id: 1,
  EventType: 1,
  EventReason: 1,
  CardNumber: '0012345678',
  CardValue: 12345678,
  HolderName: '王芳',
  Reason: 1,
  At: '2026-11-29T04:17:10.000Z',
});

const monitor: DoorMonitorReply = { Doors: [], Events: [button, forced, swipe], OpenAlarms: [] };

function renderWith(node: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The rendered entries of a list, newest first (the records' order). */
const entries = (list: HTMLElement) => within(list).queryAllByRole('listitem');

// The first render of antd's tables and lists in jsdom takes seconds on a busy machine.
describe('door events and alarms on the door monitor and the dashboard', { timeout: 30_000 }, () => {
  beforeEach(() => {
    // antd reads media queries and element sizes, which jsdom lacks.
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
    hub.length = 0;
    get
      .mockReset()
      .mockImplementation(async (path: string) =>
        path === '/api/DoorMonitor' ? monitor : { Items: [button, forced, swipe], Total: 3 },
      );
    useAreaStore.setState({ current: { Id: 1, Name: 'A', Custom: null } } as never);
  });
  afterEach(cleanup);

  const expectDoorRecordsRead = (list: HTMLElement) => {
    const [b, f, s] = entries(list) as [HTMLElement, HTMLElement, HTMLElement];
    // The push button and the forced door: their event, never a card or a pass/refusal.
    expect(b.textContent).not.toContain(EMPTY_CARD);
    expect(f.textContent).not.toContain(EMPTY_CARD);
    expect(b.querySelector('[data-record-kind="door"][data-event-reason="20"]')?.textContent).toContain(
      'enum.doorEventReason.20',
    );
    expect(f.querySelector('[data-record-kind="alarm"][data-event-reason="38"]')?.textContent).toContain(
      'enum.doorEventReason.38',
    );
    expect(b.querySelector('[data-result]')).toBeNull();
    expect(f.querySelector('[data-result]')).toBeNull();
    // The swipe: its holder and result.
    expect(s.querySelector('[data-record-kind="swipe"]')?.textContent).toContain('王芳');
    expect(s.querySelector('[data-result="true"]')).not.toBeNull();
    // Where: "door 1 in" exists on every controller, so the controller is named.
    for (const e of [b, f, s]) expect(e.textContent).toContain('东门控制器 · 1号门 进');
  };

  it("the door monitor's latest events read door events and alarms as such, with the controller", async () => {
    renderWith(<DoorMonitorPage />);
    const feed = await screen.findByTestId('event-feed');
    await waitFor(() => expect(entries(feed)).toHaveLength(3));
    expectDoorRecordsRead(feed);
  });

  it("the dashboard's latest events read them the same way", async () => {
    renderWith(<LatestEvents />);
    const list = await screen.findByTestId('dashboard-events');
    await waitFor(() => expect(entries(list)).toHaveLength(3));
    expectDoorRecordsRead(list);
  });

  it('the dashboard says how many more doors are in alarm than it lists, with the way to the alarm list', async () => {
    const door = (n: number) => ({
      Id: 100 + n,
      At: '2026-11-29T04:17:29.000Z',
      DeviceId: n,
      DeviceName: `控制器${n}`,
      DoorNumber: 1,
      ChannelName: '1号门 进',
      EventReason: 38,
    });
    get.mockImplementation(async () => ({
      TimeZone: 'Asia/Shanghai',
      Controllers: { Total: 7, Online: 7, Offline: 0, Unknown: 0, Syncing: 0 },
      Today: { Granted: 1, Denied: 0 },
      Authorizations: { Pending: 0, Failing: 0 },
      Alarms: { Open: 7, Items: [1, 2, 3, 4, 5].map(door) },
      OpenAlarms: { Count: 0, Items: [] },
      Occupancy: {
        Inside: 3,
        Visitors: 0,
        Since: '2026-11-28T20:00:00.000Z',
        ResetHour: 4,
        TimeZone: 'Asia/Shanghai',
        Muster: null,
      },
    }));
    renderWith(<AccessControlPanel />);
    const list = await screen.findByTestId('ac-alarms');
    const rows = entries(list);
    const more = screen.getByTestId('ac-alarms-more');
    // Every door in alarm is either a row or counted in "more", which is on screen, not in a scroll box.
    expect(rows.length + Number(/"count":(\d+)/.exec(more.textContent ?? '')?.[1])).toBe(7);
    expect(more.textContent).toContain('acUi.dashboard.moreAlarms');
    expect(more.getAttribute('href')).toBe('/accesscontrol/doorAlarm');
    expect(rows[0]!.textContent).toContain('控制器1 · 1号门 进');
  });

  it('the door monitor takes an alarm record from the hub at once, as the dashboard does', async () => {
    renderWith(<DoorMonitorPage />);
    const feed = await screen.findByTestId('event-feed');
    await waitFor(() => expect(entries(feed)).toHaveLength(3));
    const live = hub.find((h) => h.types.includes('DoorAlarm'));
    expect(live, 'the monitor listens to DoorAlarm, the alarm record the dashboard counts').toBeDefined();
    // The server's next answer is slower than the hub: the record shows before it.
    get.mockImplementation(() => new Promise(() => {}));
    const alarm = record({
      Id: 9,
      EventType: 3,
      EventReason: 38,
      Result: false,
      At: '2026-11-29T04:20:00.000Z',
    });
    act(() => live!.handler!({ Type: 'DoorAlarm', ...alarm }));
    await waitFor(() => expect(entries(feed)).toHaveLength(4), { timeout: 500 });
    expect(
      entries(feed)[0]!.querySelector('[data-record-kind="alarm"][data-event-reason="38"]'),
    ).not.toBeNull();
  });

  it("a refused swipe reads with its stored reason (the controller's), said once", async () => {
    const refused = record({
      Id: 5,
      EventType: 1,
      EventReason: 8,
      CardNumber: '0012345678',
      CardValue: 12345678,
      HolderName: '王芳',
      Result: false,
      Reason: 8,
    });
    get.mockReset().mockResolvedValue({ Items: [refused], Total: 1 });
    renderWith(<LatestEvents />);
    const list = await screen.findByTestId('dashboard-events');
    await waitFor(() => expect(entries(list)).toHaveLength(1));
    const text = entries(list)[0]!.textContent ?? '';
    expect(text).toContain('王芳');
    expect(text.split('enum.doorRecordReason.8').length - 1).toBe(1);
    expect(text).not.toContain('enum.doorEventReason');
  });
});
