import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ForcedOutageRecordApi, type ForcedOutageRecordItem } from '@gatehouse/shared';
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
// The dialog calls the API through the typed client only.
const call = vi.fn();
vi.mock('../src/core/api.ts', () => ({ call }));
const show = vi.fn();
vi.mock('../src/core/feedback.tsx', () => ({ DIALOG_MASK: { closable: false }, feedback: { show } }));
// The live hub: the test delivers the events a server would publish.
type HubHandler = (event: Record<string, unknown>) => void;
const hubHandlers = new Set<{ types: readonly string[]; handler: { current: HubHandler } }>();
vi.mock('../src/core/hub.ts', async () => {
  const { useEffect, useRef } = await import('react');
  return {
    useHubEvents: (types: readonly string[], handler: HubHandler) => {
      const latest = useRef(handler);
      latest.current = handler;
      useEffect(() => {
        const entry = { types, handler: latest };
        hubHandlers.add(entry);
        return () => void hubHandlers.delete(entry);
      }, [types]);
    },
  };
});
const deliver = (event: Record<string, unknown>) => {
  for (const h of hubHandlers) if (h.types.includes(event.Type as string)) h.handler.current(event);
};

const { PowerOffDialog } = await import('../src/pages/garage/charge-equipment/PowerOffDialog.tsx');
const { openDialog, useGarageDialogs } = await import('../src/pages/garage/dialogs.ts');
const { powerOffOutcome } = await import('../src/pages/garage/charge-equipment/power-off-outcome.ts');

const target = {
  socketId: 11,
  hostName: 'A区 1 号充电主机',
  portNumber: 3,
  session: {
    ChargeRecordId: 501,
    ChargeOrderId: 901,
    OrderNo: 'CD20260301000000501',
    CardNumber: '0012345678',
    StartAt: '2026-03-01T08:00:00.000Z',
    EnergyWh: 420,
    DurationMinutes: 30,
    EstimatedCents: 50,
  },
};

function record(fields: Partial<ForcedOutageRecordItem>): ForcedOutageRecordItem {
  return {
    Id: 1,
    At: '2026-03-01T08:30:00.000Z',
    ChargeEquipmentId: 11,
    PortNumber: 3,
    ChargeHostId: 2,
    HostName: 'H',
    ParkAreaId: 1,
    ZoneName: 'Z',
    ChargeRecordId: 501,
    ChargeOrderId: 901,
    OrderNo: 'CD20260301000000501',
    CardNumber: '0012345678',
    AmountCents: null,
    Reason: '插座冒烟',
    Result: 0,
    ResultReason: 'notConnected',
    ResultText: '已记录，未下发：主机未连接',
    UserName: 'bikeuser',
    ...fields,
  };
}

/** Whether the dialog is still open on the target (the screens open it through the garage's dialog store). */
const stillOpen = () => useGarageDialogs.getState().powerOff !== null;

async function cutPower() {
  openDialog('powerOff', target);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <PowerOffDialog />
    </QueryClientProvider>,
  );
  fireEvent.change(await screen.findByTestId('power-off-reason'), { target: { value: '插座冒烟' } });
  fireEvent.click(screen.getByTestId('power-off-ok'));
  await waitFor(() => expect(show).toHaveBeenCalled());
}

describe('forced power-off dialog: says what the device did', () => {
  beforeEach(() => {
    call.mockReset();
    show.mockReset();
  });
  afterEach(cleanup);

  it('not sent: a warning with the reason, the session still running; the dialog stays to be read', async () => {
    call.mockResolvedValue(record({}));
    await cutPower();
    expect(call).toHaveBeenCalledWith(ForcedOutageRecordApi.powerOff, {
      body: { ChargeEquipmentId: 11, ChargeRecordId: 501, Reason: '插座冒烟' },
    });
    const [toast] = show.mock.calls[0]!;
    expect(toast.type).toBe('warning');
    expect(toast.content).toContain('garageUi.powerOff.notSentRunning');
    expect(toast.content).toContain('已记录，未下发：主机未连接');
    expect(toast.content).not.toContain('garageUi.powerOff.done');
    expect(stillOpen()).toBe(true);
    const outcome = await screen.findByTestId('power-off-outcome');
    expect(outcome.getAttribute('data-cut')).toBe('false');
    expect(outcome.textContent).toContain('已记录，未下发：主机未连接');
  });

  it("sent, not confirmed: a warning while the session runs; the charger's confirmation, live, turns it into power cut", async () => {
    call.mockResolvedValue(
      record({ Id: 77, Result: 3, ResultReason: 'noConfirmation', ResultText: '待确认' }),
    );
    await cutPower();
    const outcome = await screen.findByTestId('power-off-outcome');
    expect(outcome.getAttribute('data-cut')).toBe('false');
    expect(outcome.textContent).toContain('garageUi.powerOff.awaiting');
    // Another record's confirmation changes nothing here.
    deliver({
      Type: 'PowerOffConfirmed',
      ForcedOutageRecordId: 76,
      SocketId: 11,
      ChargeRecordId: 500,
      OrderId: 1,
      AmountCents: 1,
    });
    expect((await screen.findByTestId('power-off-outcome')).getAttribute('data-cut')).toBe('false');
    deliver({
      Type: 'PowerOffConfirmed',
      ForcedOutageRecordId: 77,
      SocketId: 11,
      ChargeRecordId: 501,
      OrderId: 901,
      AmountCents: 148,
    });
    await waitFor(() =>
      expect(screen.getByTestId('power-off-outcome').getAttribute('data-cut')).toBe('true'),
    );
    expect(screen.getByTestId('power-off-outcome').textContent).toContain('garageUi.powerOff.doneWithOrder');
    expect(screen.getByTestId('power-off-outcome').textContent).toContain('"amount":"1.48"');
  });

  it('power cut: success with the settled order, and the dialog closes', async () => {
    call.mockResolvedValue(record({ Result: 1, ResultReason: null, ResultText: null, AmountCents: 148 }));
    await cutPower();
    const [toast] = show.mock.calls[0]!;
    expect(toast.type).toBe('success');
    expect(toast.content).toContain('garageUi.powerOff.doneWithOrder');
    expect(toast.content).toContain('"amount":"1.48"');
    await waitFor(() => expect(stillOpen()).toBe(false));
  });

  it('failed or not confirmed: never success, with the charger’s reason', () => {
    const t = (key: string, values?: Record<string, unknown>) => `${key} ${JSON.stringify(values ?? {})}`;
    const refused = powerOffOutcome(
      record({ Result: 2, ResultReason: 'refused', ResultText: '充电桩拒绝了该指令' }),
      t,
    );
    expect(refused).toMatchObject({ type: 'error', cut: false });
    expect(refused.text).toContain('garageUi.powerOff.failedRunning');
    expect(refused.text).toContain('充电桩拒绝了该指令');
    const waiting = powerOffOutcome(
      record({ Result: 3, ResultReason: 'noConfirmation', ResultText: 'x' }),
      t,
    );
    expect(waiting).toMatchObject({ type: 'warning', cut: false });
    expect(waiting.text).toContain('garageUi.powerOff.awaiting');
    const idle = powerOffOutcome(
      record({ ChargeRecordId: null, OrderNo: null, ResultReason: 'noDeviceLink' }),
      t,
    );
    expect(idle.text).toContain('garageUi.powerOff.notSent ');
  });
});
