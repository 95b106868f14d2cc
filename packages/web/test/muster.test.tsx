import './support/antd-jsdom.ts';
import {
  act,
  cleanup,
  fireEvent,
  render,
  screen,
  waitFor as waitForDom,
  within,
} from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { MusterItem, MusterPersonItem, OccupancySummary } from '@gatehouse/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The words are the catalogue keys and their values: the test reads what would be said, in any language.
vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, values?: Record<string, unknown>) =>
      values && !('defaultValue' in values) ? `${key} ${JSON.stringify(values)}` : key,
  }),
}));
// The typed client, by method and path: what the server would answer, each call recorded.
const calls: { method: string; path: string; input: unknown }[] = [];
let answer: (method: string, path: string, input: unknown) => unknown = () => undefined;
vi.mock('../src/core/api.ts', () => ({
  call: (op: { method: string; path: string }, input?: unknown) => {
    calls.push({ method: op.method, path: op.path, input });
    return Promise.resolve(answer(op.method, op.path, input));
  },
}));
const success = vi.fn();
vi.mock('../src/core/feedback.tsx', () => ({ DIALOG_MASK: { closable: false }, feedback: { success } }));
// The hub: the page's subscriptions, called by the test as the server would.
type Handler = (message: Record<string, unknown>) => void;
const hub: { types: readonly string[]; handler: Handler }[] = [];
vi.mock('../src/core/hub.ts', () => ({
  useHubEvents: (types: readonly string[], handler: Handler) => {
    hub.push({ types, handler });
  },
}));

const { useSessionStore } = await import('../src/stores/session.ts');
const { useAreaStore } = await import('../src/stores/area.ts');
const { applyMusterEvent } = await import('../src/pages/access-control/muster/muster-live.ts');
const { default: MusterPage } = await import('../src/pages/access-control/muster/MusterPage.tsx');

// A render loads antd's table, tabs and statistic: seconds on a loaded machine.
vi.setConfig({ testTimeout: 40_000 });
const waitFor = <T,>(check: () => T) => waitForDom(check, { timeout: 15_000 });

function muster(fields: Partial<MusterItem> = {}): MusterItem {
  return {
    Id: 5,
    AreaId: 1,
    Reason: '消防演练',
    StartedAt: '2026-11-01T08:05:00.000Z',
    StartedBy: '郑国强',
    EndedAt: null,
    EndedBy: null,
    Note: null,
    Points: [
      {
        ChannelId: 12,
        ChannelName: '2号门进门',
        DeviceId: 3,
        DeviceName: '东门控制器',
        DoorNumber: 2,
        Direction: 1,
      },
    ],
    Total: 3,
    Safe: 0,
    Missing: 3,
    ...fields,
  };
}

function person(id: number, name: string, fields: Partial<MusterPersonItem> = {}): MusterPersonItem {
  return {
    Id: 100 + id,
    MusterId: 5,
    CardUserId: id,
    Name: name,
    Phone: null,
    DepartmentName: '物业服务中心',
    Visitor: false,
    CardNumber: `00310000${id}0`,
    LastAt: '2026-11-01T07:40:00.000Z',
    DeviceName: '东门控制器',
    ChannelName: '1号门进门',
    Safe: false,
    SafeAt: null,
    SafeHow: null,
    SafeBy: null,
    Note: null,
    ...fields,
  };
}

const summary = (fields: Partial<OccupancySummary> = {}): OccupancySummary => ({
  Inside: 3,
  Visitors: 0,
  Since: '2026-10-31T20:00:00.000Z',
  ResetHour: 4,
  TimeZone: 'Asia/Shanghai',
  Muster: { Id: 5, StartedAt: '2026-11-01T08:05:00.000Z', Total: 3, Safe: 0, Missing: 3 },
  ...fields,
});

/** The missing count the roll call shows, large. */
const missing = () => Number(/(\d+)\s*$/.exec(screen.getByTestId('muster-missing').textContent ?? '')?.[1]);

/** Tells the page, as the hub would, that roll call `id` now stands at these counts. */
function tell(fields: Partial<MusterItem>) {
  act(() => {
    for (const h of hub.filter((x) => x.types.includes('Muster')))
      h.handler({ Type: 'Muster', At: '2026-11-01T08:06:00.000Z', ...muster(fields) });
  });
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <MusterPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('a roll call kept live', () => {
  it('takes a later count of the same roll call, never a count going back up, nor another roll call', () => {
    const now = muster({ Safe: 1, Missing: 2 });
    const at = { Type: 'Muster' as const, At: '2026-11-01T08:06:00.000Z' };
    expect(applyMusterEvent(now, { ...at, ...muster({ Safe: 2, Missing: 1 }) })?.Missing).toBe(1);
    // Overtaken by a later one: the count stays where it had fallen.
    expect(applyMusterEvent(now, { ...at, ...muster({ Safe: 0, Missing: 3 }) })).toBe(now);
    expect(applyMusterEvent(now, { ...at, ...muster({ Id: 6, Missing: 0 }) })).toBe(now);
    // The end is taken whatever it says.
    const ended = applyMusterEvent(now, {
      ...at,
      ...muster({ EndedAt: '2026-11-01T08:30:00.000Z', Safe: 1 }),
    });
    expect(ended?.EndedAt).not.toBeNull();
  });
});

describe('the muster screen', () => {
  let people: MusterPersonItem[];
  beforeEach(() => {
    calls.length = 0;
    hub.length = 0;
    success.mockReset();
    useAreaStore.setState({ current: { Id: 1, Name: '滨江花园社区', Custom: null } });
    useSessionStore.setState({ roles: ['AccessControl/User'] });
    people = [person(1, '王芳'), person(2, '李强'), person(3, '赵敏')];
    let current = muster();
    answer = (method, path, input) => {
      if (path === '/api/Occupancy/Summary') return summary();
      if (path === '/api/Muster/:Id') return current;
      if (path === '/api/MusterPerson') return { Items: people, Total: people.length };
      if (path === '/api/Occupancy') return { Items: [], Total: 0 };
      if (method === 'POST' && path === '/api/Muster/MarkSafe') {
        const ids = (input as { body: { CardUserIds: number[] } }).body.CardUserIds;
        people = people.map((p) => (ids.includes(p.CardUserId) ? { ...p, Safe: true, SafeHow: 'hand' } : p));
        current = muster({ Safe: current.Safe + ids.length, Missing: current.Missing - ids.length });
        return current;
      }
      return undefined;
    };
  });
  afterEach(cleanup);

  it('opens on the roll call under way: the missing count in red, who is missing, and where people muster', async () => {
    renderPage();
    await waitFor(() => expect(missing()).toBe(3));
    const header = screen.getByTestId('muster-header');
    expect(header.getAttribute('data-under-way')).toBe('true');
    expect(header.textContent).toContain('"points":"东门控制器 · 2号门进门"');
    expect(header.textContent).toContain('消防演练');
    expect(screen.getByTestId('occupancy-inside').textContent).toContain('3');
    await waitFor(() => expect(screen.getByText('赵敏')).toBeTruthy());
    // The people of this roll call are asked for, and no roll call can be started while it lasts.
    expect(
      calls.some((c) => c.path === '/api/MusterPerson' && JSON.stringify(c.input).includes('"MusterId":5')),
    ).toBe(true);
    expect(screen.queryByTestId('muster-start')).toBeNull();
  });

  it('lowers the missing count as the hub tells of people found at a muster point', async () => {
    renderPage();
    await waitFor(() => expect(missing()).toBe(3));
    tell({ Safe: 1, Missing: 2 });
    await waitFor(() => expect(missing()).toBe(2));
    // Another roll call's news, or news overtaken by a later one, does not move it.
    tell({ Id: 6, Safe: 3, Missing: 0 });
    tell({ Safe: 0, Missing: 3 });
    expect(missing()).toBe(2);
    tell({ Safe: 3, Missing: 0 });
    await waitFor(() => expect(missing()).toBe(0));
  });

  it('marks a missing person safe by hand, behind a confirmation, and shows the count after it', async () => {
    renderPage();
    await waitFor(() => expect(screen.getByText('李强')).toBeTruthy());
    const row = screen.getByText('李强').closest('tr')!;
    fireEvent.click(within(row).getByTestId('row-markSafe'));
    fireEvent.click(await screen.findByText('list.confirm'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/Muster/MarkSafe')).toBe(true));
    expect(calls.find((c) => c.path === '/api/Muster/MarkSafe')!.input).toEqual({
      body: { Id: 5, CardUserIds: [2] },
    });
    await waitFor(() => expect(missing()).toBe(2));
    // Told once (the words are i18next's own, not loaded here).
    expect(success).toHaveBeenCalledTimes(1);
    // Once safe, the row offers the mark no more.
    await waitFor(() =>
      expect(within(screen.getByText('李强').closest('tr')!).queryByTestId('row-markSafe')).toBeNull(),
    );
  });

  it('offers to start a roll call when none is under way, with everyone inside on it', async () => {
    answer = (_method, path) => {
      if (path === '/api/Occupancy/Summary') return summary({ Muster: null });
      if (path === '/api/Occupancy') return { Items: [], Total: 0 };
      if (path === '/api/Options/AccessControlChannels') return [];
      return undefined;
    };
    renderPage();
    fireEvent.click(await screen.findByTestId('muster-start'));
    await waitFor(() => expect(screen.getByTestId('muster-start-inside').textContent).toContain('"count":3'));
  });
});
