import { cleanup, fireEvent, render, screen, waitFor as waitForDom, within } from '@testing-library/react';
import { AccessControlDeviceApi, type AccessCheckResult } from '@gatehouse/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';

/*
 * Issue 31, the access check on screen: Gatehouse's side and the controller's next to each other, each step with
 * its verdict icon, the disagreement in the server's words and "sync now" for an administrator only; the links
 * from a refused swipe (its card, door and minute on the area's clock). The words are the catalogue keys.
 */

vi.mock('react-i18next', () => ({
  useTranslation: () => ({
    t: (key: string, options?: Record<string, unknown>) =>
      options ? `${key}${JSON.stringify(options)}` : key,
  }),
}));
const success = vi.fn();
vi.mock('../src/core/feedback.tsx', () => ({
  DIALOG_MASK: { closable: false },
  feedback: { success, warning: vi.fn(), error: vi.fn(), info: vi.fn(), show: vi.fn() },
}));
const call = vi.fn((_op: unknown, _input?: unknown) => Promise.resolve({ Started: true }));
vi.mock('../src/core/api.ts', () => ({ call }));
let admin = true;
vi.mock('../src/components/list-page/permissions.ts', () => ({
  useCan: () => admin,
  canUse: () => admin,
}));

await import('./support/antd-jsdom.ts');
const { CheckResult } = await import('../src/pages/access-control/access-check/CheckResult.tsx');
const { accessCheckLink, checkMinute } = await import('../src/pages/access-control/access-check/links.ts');

afterEach(() => {
  cleanup();
  call.mockClear();
  admin = true;
});
// A render loads antd's cards, lists and alerts: seconds on a loaded machine.
vi.setConfig({ testTimeout: 30_000 });
const waitFor = <T,>(check: () => T) => waitForDom(check, { timeout: 10_000 });

const step = (
  Step: string,
  Verdict: 'pass' | 'refuse' | 'warn' | 'unknown',
  Finding: string,
  Text: string,
) => ({
  Step,
  Verdict,
  Finding,
  Text,
  Data: {},
});

/** The card deleted from the controller behind Gatehouse's back: Gatehouse lets it in, the controller refuses. */
const deleted: AccessCheckResult = {
  CardNumber: '0016777216',
  CardValue: 65536,
  CardUserId: 5,
  HolderName: '王芳',
  ChannelId: 11,
  ChannelName: '1号门进门',
  DeviceId: 2,
  DeviceName: '东门控制器',
  SerialNumber: '223336677',
  DoorNumber: 1,
  Direction: 1,
  At: '2027-05-04T02:00:00.000Z',
  AtLocal: '2027-05-04 10:00',
  TimeZone: 'Asia/Shanghai',
  Now: false,
  Server: {
    Verdict: 'pass',
    Text: 'Gatehouse lets it through',
    Steps: [
      step('card', 'pass', 'cardRegistered', 'Card 0016777216 is registered'),
      step('timeProfile', 'pass', 'inProfile', '10:00 is inside “Office hours”'),
    ],
  },
  Controller: {
    Verdict: 'refuse',
    Text: '东门控制器 refuses it: it does not hold card 0016777216',
    State: 'read',
    ReadAt: '2027-05-04T02:00:03.000Z',
    Steps: [
      step('reach', 'pass', 'reach_read', '东门控制器 answered just now'),
      step('card', 'refuse', 'ctlLacksCard', 'It does not hold card 0016777216'),
      step('clock', 'warn', 'ctlClockOff', 'Its clock is 120 s off'),
    ],
  },
  Disagreements: [
    {
      Finding: 'cardMissing',
      Text: 'Gatehouse grants card 0016777216 on door 1, but controller 东门控制器 does not hold it',
      SyncFixes: true,
    },
  ],
  SyncNow: true,
};

describe('an access check on screen', () => {
  it('shows both sides next to each other, every step with its verdict, and the controller read live', () => {
    render(<CheckResult result={deleted} onSynced={() => {}} />);
    const server = screen.getByTestId('access-check-server');
    const controller = screen.getByTestId('access-check-controller');
    expect(server.getAttribute('data-verdict')).toBe('pass');
    expect(controller.getAttribute('data-verdict')).toBe('refuse');
    // Each step: its title, its words, and an icon named by its verdict (for screen readers too).
    const lacks = controller.querySelector('[data-step="card"]')!;
    expect(lacks.getAttribute('data-verdict')).toBe('refuse');
    expect(lacks.textContent).toContain('accessCheck.controllerStep.card');
    expect(lacks.textContent).toContain('It does not hold card 0016777216');
    expect(
      within(lacks as HTMLElement).getByRole('img', { name: 'accessCheck.verdict.refuse' }),
    ).toBeTruthy();
    expect(controller.querySelector('[data-step="clock"]')!.getAttribute('data-verdict')).toBe('warn');
    expect(server.querySelector('[data-step="timeProfile"]')!.textContent).toContain(
      'accessCheck.step.timeProfile',
    );
    expect(controller.textContent).toContain('东门控制器');
    expect(controller.textContent).toContain('accessCheckUi.side.readAt');
    expect(controller.textContent).toContain(deleted.Controller.Text);
  });

  it('says where the two sides disagree and syncs the controller for an administrator', async () => {
    const onSynced = vi.fn();
    render(<CheckResult result={deleted} onSynced={onSynced} />);
    const alert = screen.getByTestId('access-check-disagreements');
    expect(alert.textContent).toContain('accessCheckUi.disagree.title');
    expect(alert.querySelector('[data-finding="cardMissing"]')!.textContent).toBe(
      deleted.Disagreements[0]!.Text,
    );
    fireEvent.click(screen.getByTestId('access-check-sync'));
    await waitFor(() => expect(onSynced).toHaveBeenCalledOnce());
    expect(call).toHaveBeenCalledWith(AccessControlDeviceApi.syncNow, { body: { Id: 2 } });
    expect(success).toHaveBeenCalledWith('accessCheckUi.disagree.syncStarted');
  });

  it('offers no sync to an operator without the Admin code, and none where nothing disagrees', () => {
    admin = false;
    render(<CheckResult result={deleted} onSynced={() => {}} />);
    expect(screen.queryByTestId('access-check-sync')).toBeNull();
    expect(screen.getByTestId('access-check-disagreements').textContent).toContain(
      'accessCheckUi.disagree.adminOnly',
    );
    cleanup();
    admin = true;
    render(
      <CheckResult
        result={{
          ...deleted,
          Disagreements: [],
          SyncNow: false,
          Controller: { ...deleted.Controller, ReadAt: null },
        }}
        onSynced={() => {}}
      />,
    );
    expect(screen.queryByTestId('access-check-disagreements')).toBeNull();
    expect(screen.getByTestId('access-check-controller').textContent).toContain('accessCheckUi.side.notRead');
  });
});

describe('links to the access check', () => {
  it('carries a refused swipe’s card, door and minute on the area’s clock', () => {
    // No area chosen: the default site zone (Asia/Shanghai), 8 hours ahead of UTC.
    const at = checkMinute('2027-05-09T12:00:40.000Z');
    expect(at).toBe('2027-05-09 20:00');
    const link = accessCheckLink({ CardNumber: '0016777216', ChannelId: 11, At: at });
    const url = new URL(link, 'http://x');
    expect(url.pathname).toBe('/accesscontrol/accessCheck');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      CardNumber: '0016777216',
      ChannelId: '11',
      At: '2027-05-09 20:00',
    });
    // A holder's card alone, or a door alone: only what is known.
    expect(accessCheckLink({ CardNumber: '0016777216' })).toBe(
      '/accesscontrol/accessCheck?CardNumber=0016777216',
    );
    expect(accessCheckLink({ ChannelId: 11, At: null })).toBe('/accesscontrol/accessCheck?ChannelId=11');
  });
});
