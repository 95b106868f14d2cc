import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import {
  AreaLockdownApi,
  type AreaLockdownDoor,
  type AreaLockdownItem,
  type HubEventOf,
} from '@gatehouse/shared';
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
vi.mock('../src/core/feedback.tsx', () => ({ DIALOG_MASK: { closable: false }, feedback: { success } }));

const { applyLockdownEvent, withDoor } = await import('../src/components/lockdown/area-lockdown.ts');
const { LockdownBanner } = await import('../src/components/lockdown/LockdownBanner.tsx');
const { StartLockdownDialog, ReleaseLockdownDialog } =
  await import('../src/pages/access-control/door-monitor/LockdownDialogs.tsx');
const { useAreaStore } = await import('../src/stores/area.ts');
const { useSessionStore } = await import('../src/stores/session.ts');

function door(n: number, fields: Partial<AreaLockdownDoor> = {}): AreaLockdownDoor {
  return {
    DeviceId: 3,
    DeviceName: '1号楼门禁',
    SerialNumber: '223000001',
    DoorNumber: n,
    DoorName: `${n}号门进门`,
    State: 'pending',
    Wanted: 2,
    Mode: null,
    Delay: null,
    ReadAt: null,
    ...fields,
  };
}

function lockdown(fields: Partial<AreaLockdownItem> = {}): AreaLockdownItem {
  return {
    Id: 5,
    AreaId: 1,
    Mode: 'lockdown',
    Reason: '东门发现可疑人员',
    // 16:05 on the area's clock (Asia/Shanghai, the default site zone).
    StartedAt: '2026-11-01T08:05:00.000Z',
    StartedBy: 'alarm panel (ghk_AbCdEfGh…)',
    StartedByKind: 'key',
    ReleasedAt: null,
    ReleasedBy: null,
    ReleasedByKind: null,
    Note: null,
    Doors: [door(1), door(2)],
    Confirmed: 0,
    Total: 2,
    ...fields,
  };
}

const hubDoor = (d: AreaLockdownDoor, lockdownId = 5): HubEventOf<'LockdownDoor'> => ({
  Type: 'LockdownDoor',
  At: '2026-11-01T08:05:02.000Z',
  LockdownId: lockdownId,
  ...d,
});

describe('the lockdown kept live from the hub', () => {
  it('a started lockdown replaces the reply; each door read back is counted as confirmed', () => {
    const started = applyLockdownEvent(undefined, {
      Type: 'Lockdown',
      At: '2026-11-01T08:05:00.000Z',
      ...lockdown(),
    });
    expect(started?.Lockdown?.Confirmed).toBe(0);
    const one = applyLockdownEvent(started, hubDoor(door(1, { State: 'held', Mode: 2, Delay: 3 })));
    expect(one?.Lockdown).toMatchObject({ Confirmed: 1, Total: 2 });
    expect(one?.Lockdown?.Doors[0]).toMatchObject({ State: 'held', Mode: 2 });
    // A door of a controller that joined the area meanwhile is added.
    const added = applyLockdownEvent(one, hubDoor(door(3, { DeviceId: 9, State: 'held', Mode: 2 })));
    expect(added?.Lockdown).toMatchObject({ Confirmed: 2, Total: 3 });
  });

  it('asks again for a door of another lockdown; shows nothing once released and every door is back', () => {
    const reply = { Lockdown: lockdown() };
    expect(applyLockdownEvent(reply, hubDoor(door(1), 4))).toBeUndefined();
    const released = lockdown({
      ReleasedAt: '2026-11-01T09:00:00.000Z',
      Doors: [door(1, { State: 'restored' }), door(2, { State: 'restoring' })],
    });
    const pending = applyLockdownEvent(undefined, {
      Type: 'Lockdown',
      At: released.ReleasedAt!,
      ...released,
    });
    expect(pending?.Lockdown?.ReleasedAt).not.toBeNull();
    expect(applyLockdownEvent(pending, hubDoor(door(2, { State: 'restored', Mode: 3 })))).toEqual({
      Lockdown: null,
    });
    expect(withDoor(lockdown(), door(2, { State: 'unreached' })).Confirmed).toBe(1);
  });
});

const wrap = (node: React.ReactNode) => (
  <QueryClientProvider client={new QueryClient()}>
    <MemoryRouter>{node}</MemoryRouter>
  </QueryClientProvider>
);

describe('the lockdown banner and dialogs', () => {
  beforeEach(() => {
    call.mockReset();
    success.mockReset();
    useAreaStore.setState({ current: { Id: 1, Name: '滨江花园社区', Custom: null } });
    useSessionStore.setState({ roles: ['AccessControl/Admin'] });
  });
  afterEach(cleanup);

  it('shows the mode, since when on the area clock, who and why, and the doors confirmed, in red', async () => {
    call.mockResolvedValue({
      Lockdown: lockdown({ Confirmed: 1, Doors: [door(1, { State: 'held' }), door(2)] }),
    });
    render(wrap(<LockdownBanner />));
    const banner = await screen.findByTestId('lockdown-banner');
    expect(call).toHaveBeenCalledWith(AreaLockdownApi.current, {}, { silent: true });
    expect(banner.getAttribute('data-mode')).toBe('lockdown');
    expect(banner.className).toContain('lockdown-banner');
    expect(banner.textContent).toContain('lockdownUi.banner.lockdown');
    expect(banner.textContent).toContain('"time":"11-01 16:05');
    expect(banner.textContent).toContain('alarm panel');
    expect(banner.textContent).toContain('东门发现可疑人员');
    expect(screen.getByTestId('lockdown-banner-confirmed').textContent).toContain(
      '{"confirmed":1,"total":2}',
    );
  });

  it('shows nothing when none is in force, nor while a released one gives the doors back', async () => {
    call.mockResolvedValue({ Lockdown: null });
    const { container } = render(wrap(<LockdownBanner />));
    await waitFor(() => expect(call).toHaveBeenCalled());
    expect(container.querySelector('[data-testid="lockdown-banner"]')).toBeNull();
    cleanup();
    call.mockResolvedValue({
      Lockdown: lockdown({
        ReleasedAt: '2026-11-01T09:00:00.000Z',
        Doors: [door(1, { State: 'restoring' })],
      }),
    });
    const again = render(wrap(<LockdownBanner />));
    await waitFor(() => expect(call).toHaveBeenCalledTimes(2));
    expect(again.container.querySelector('[data-testid="lockdown-banner"]')).toBeNull();
  });

  it('starts an evacuation only with a reason, the mode as chosen', async () => {
    call.mockResolvedValue(lockdown({ Mode: 'evacuate' }));
    const onClose = vi.fn();
    render(wrap(<StartLockdownDialog open areaId={1} onClose={onClose} />));
    const ok = await screen.findByTestId('lockdown-dialog-ok');
    expect((ok as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(document.querySelector('input[value="evacuate"]')!);
    fireEvent.change(screen.getByTestId('lockdown-dialog-text'), { target: { value: ' 2号楼火警 ' } });
    await waitFor(() => expect((ok as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(ok);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(call).toHaveBeenCalledWith(AreaLockdownApi.start, {
      body: { Id: 1, Mode: 'evacuate', Reason: '2号楼火警' },
    });
    expect(success).toHaveBeenCalledWith('lockdownUi.startDialog.started');
  }, 20_000);

  it('releases only with a note', async () => {
    call.mockResolvedValue(lockdown({ ReleasedAt: '2026-11-01T09:00:00.000Z' }));
    const onClose = vi.fn();
    render(wrap(<ReleaseLockdownDialog open areaId={1} onClose={onClose} />));
    const ok = await screen.findByTestId('lockdown-release-dialog-ok');
    expect((ok as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('lockdown-release-dialog-text'), { target: { value: '警方已清场' } });
    await waitFor(() => expect((ok as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(ok);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(call).toHaveBeenCalledWith(AreaLockdownApi.release, { body: { Id: 1, Note: '警方已清场' } });
  }, 20_000);
});
