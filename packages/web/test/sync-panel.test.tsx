import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceStatusCount } from '@gatehouse/shared';

// Keys with their values, so a test reads what was asked for without a catalogue.
vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, options?: Record<string, unknown>) =>
      options ? `${key}${JSON.stringify(options)}` : key,
  }),
}));
// The typed client, by the operation's method: reads and writes are counted apart.
const get = vi.fn();
const post = vi.fn();
vi.mock('../src/core/api.ts', () => ({
  call: (op: { method: string; path: string }, input?: unknown) =>
    op.method === 'GET' ? get(op.path) : post(op.path, input),
}));
vi.mock('../src/core/feedback.tsx', () => ({ feedback: { success: vi.fn() } }));
type Handler = (message: { Type: string; At: string; [key: string]: unknown }) => void;
let hubHandler: Handler | undefined;
let hubTypes: readonly string[] = [];
vi.mock('../src/core/hub.ts', () => ({
  useHubEvents: (types: readonly string[], handler: Handler) => {
    hubTypes = types;
    hubHandler = handler;
  },
}));

const { useSessionStore } = await import('../src/stores/session.ts');
const { useAreaStore } = await import('../src/stores/area.ts');
const { DeviceStatusSummary } =
  await import('../src/pages/access-control/card-user-link-channel/DeviceStatusSummary.tsx');

const counts = { '-2': 0, '-1': 1, '0': 0, '1': 4, '2': 0, '3': 10 };
function device(overrides: Partial<DeviceStatusCount>): DeviceStatusCount {
  return {
    DeviceId: 1,
    DeviceName: '东门',
    SerialNumber: '223000001',
    Protocol: 0,
    Disabled: false,
    Counts: counts,
    Pending: 5,
    Total: 15,
    Online: true,
    LastSeenAt: '2026-11-01T08:00:00.000Z',
    SyncState: 'done',
    SyncPhase: null,
    SyncDone: 0,
    SyncTotal: 0,
    SyncStartedAt: null,
    SyncFinishedAt: '2026-11-01T08:00:00.000Z',
    SyncError: null,
    Failing: 0,
    SyncAttempts: 0,
    NextSyncAt: null,
    ...overrides,
  };
}

const rows: DeviceStatusCount[] = [
  device({}),
  device({
    DeviceId: 2,
    DeviceName: '西门',
    Online: false,
    SyncState: 'failed',
    SyncError: 'offline',
    Failing: 5,
    SyncAttempts: 3,
    NextSyncAt: '2026-11-01T08:05:00.000Z',
  }),
  device({ DeviceId: 3, DeviceName: '闸机', Protocol: 1, Online: null, SyncState: null, Pending: 0 }),
];

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <DeviceStatusSummary onPick={() => {}} />
    </QueryClientProvider>,
  );
}

const cell = (id: string) => screen.getByTestId(id);

describe('the authorisation screen sync panel', () => {
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
    get.mockReset().mockResolvedValue(rows);
    post.mockReset().mockResolvedValue({ Started: true });
    useAreaStore.setState({ current: { Id: 1, Name: 'A', Custom: null } } as never);
  });
  afterEach(cleanup);

  it('shows each controller, the translated failure reason and the next retry, and "sync now" to the Admin', async () => {
    useSessionStore.setState({ roles: ['AccessControl/Admin'] } as never);
    renderPanel();
    await screen.findByTestId('sync-2');
    expect(hubTypes).toEqual(['SyncProgress', 'DeviceStatus']);
    expect(get).toHaveBeenCalledWith('/api/CardUserLinkChannel/DeviceStatusCounts');
    expect(cell('sync-2').querySelector('[data-sync="failed"]')).not.toBeNull();
    expect(cell('sync-2').querySelector('[data-sync-error="offline"]')?.textContent).toBe(
      'acUi.device.syncError.offline',
    );
    expect(cell('sync-2').textContent).toContain('acUi.device.syncFailing{"count":5}');
    expect(cell('sync-2').textContent).toContain('acUi.device.syncRetry');
    expect(cell('sync-1').querySelector('[data-sync="done"]')).not.toBeNull();
    // A third-party gate has nothing to sync and no button.
    expect(screen.queryByTestId('sync-3')).toBeNull();
    expect(screen.getByText('acUi.device.noSyncNeeded')).toBeTruthy();

    fireEvent.click(cell('sync-now-2'));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/api/AccessControlDevice/SyncNow', { body: { Id: 2 } }),
    );
  });

  it('follows the hub: progress and connection in place without asking the server, a finished pass reloads', async () => {
    useSessionStore.setState({ roles: ['AccessControl/Admin'] } as never);
    renderPanel();
    await screen.findByTestId('sync-2');
    expect(get).toHaveBeenCalledTimes(1);

    act(() => hubHandler!({ Type: 'SyncProgress', At: '', DeviceId: 2, Phase: 'write', Done: 3, Total: 10 }));
    // React Query tells its observers on the next tick.
    const running = await waitFor(() => {
      const found = cell('sync-2').querySelector('[data-sync="running"]');
      expect(found).not.toBeNull();
      return found;
    });
    expect(running?.getAttribute('data-sync-phase')).toBe('write');
    expect(running?.textContent).toContain('3/10');
    // No "sync now" while a pass runs; the other controller is untouched.
    expect(screen.queryByTestId('sync-now-2')).toBeNull();
    expect(cell('sync-1').querySelector('[data-sync="done"]')).not.toBeNull();
    expect(get).toHaveBeenCalledTimes(1);

    // A controller going away is shown on its row as it is reported.
    act(() =>
      hubHandler!({
        Type: 'DeviceStatus',
        At: '',
        DeviceId: 1,
        Online: false,
        LastSeenAt: '2026-11-01T08:10:00.000Z',
        Firmware: null,
      }),
    );
    await waitFor(() =>
      expect(
        screen
          .getByTestId('sync-1')
          .closest('tr')
          ?.querySelector('[data-online]')
          ?.getAttribute('data-online'),
      ).toBe('offline'),
    );
    expect(get).toHaveBeenCalledTimes(1);

    act(() => hubHandler!({ Type: 'SyncProgress', At: '', DeviceId: 2, Phase: 'done', Ok: true }));
    await waitFor(() => expect(get).toHaveBeenCalledTimes(2));
  });

  it('keeps "sync now" from the User code, which the server would refuse', async () => {
    useSessionStore.setState({ roles: ['AccessControl/User'] } as never);
    renderPanel();
    await screen.findByTestId('sync-2');
    expect(screen.queryByTestId('sync-now-2')).toBeNull();
    expect(screen.queryByTestId('sync-now-1')).toBeNull();
  });

  it('puts "issue succeeded" first among the status columns, then what is on its way, then the settled rest', async () => {
    useSessionStore.setState({ roles: ['AccessControl/User'] } as never);
    renderPanel();
    await screen.findByTestId('sync-2');
    const headers = [...document.querySelectorAll('[data-testid="status-summary"] thead th')]
      .map((th) => th.textContent ?? '')
      .filter((text) => text.startsWith('enum.issueStatus.'));
    expect(headers).toEqual([
      'enum.issueStatus.3',
      'enum.issueStatus.1',
      'enum.issueStatus.2',
      'enum.issueStatus.-1',
      'enum.issueStatus.-2',
      'enum.issueStatus.0',
    ]);
  });
});
