import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ChargeHostApi, type HeatAlarmItem } from '@gatehouse/shared';
import type { TFunction } from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';

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
const tr = (key: string, values?: Record<string, unknown>) =>
  values ? `${key} ${JSON.stringify(values)}` : key;
vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: tr }) }));
const call = vi.fn();
vi.mock('../src/core/api.ts', () => ({ call }));
const success = vi.fn();
vi.mock('../src/core/feedback.tsx', () => ({ DIALOG_MASK: { closable: false }, feedback: { success } }));
let admin = true;
vi.mock('../src/components/list-page/index.ts', () => ({ useCan: () => admin }));

const { HeatAlarmBanner, HeatAlarmTag, heatAlarmLines, heatAlarmText } =
  await import('../src/pages/garage/charge-host/HeatAlarm.tsx');
const { ClearHeatAlarmDialog } = await import('../src/pages/garage/charge-host/ClearHeatAlarmDialog.tsx');
const { useGarageDialogs } = await import('../src/pages/garage/dialogs.ts');

const t = tr as unknown as TFunction;

const alarm: HeatAlarmItem = {
  Id: 4,
  ChargeHostId: 8,
  HostName: 'A区 1 号充电主机',
  SerialNumber: 'CH0001',
  ParkAreaId: 1,
  ZoneName: 'A区',
  Trigger: 'temperature',
  TemperatureC: 70,
  LimitC: 60,
  ConnectorId: 0,
  Location: 'Body',
  RaisedAt: '2026-11-01T08:00:00.000Z',
  LastTemperatureC: 66.5,
  LastReadingAt: '2026-11-01T08:05:00.000Z',
  Sessions: [
    { ChargeRecordId: 501, ChargeEquipmentId: 11, PortNumber: 1, CardNumber: '0012345678', OrderNo: 'CD1' },
    { ChargeRecordId: 502, ChargeEquipmentId: 12, PortNumber: 3, CardNumber: null, OrderNo: null },
  ],
  ClearedAt: null,
  ClearedBy: null,
  Note: null,
};

afterEach(() => {
  cleanup();
  call.mockReset();
  success.mockReset();
  useGarageDialogs.setState({ clearHeatAlarm: null });
});

describe('a host in heat alarm on the screens', () => {
  it('says the temperature against the limit, or the charger’s own fault', () => {
    expect(heatAlarmText(t, alarm)).toBe(
      'garageUi.heat.tag {"temperature":"garageUi.heat.degrees {\\"value\\":\\"70\\"}","limit":"garageUi.heat.degrees {\\"value\\":\\"60\\"}"}',
    );
    const fault = { ...alarm, Trigger: 'fault' as const, TemperatureC: null, LimitC: null, ConnectorId: 2 };
    expect(heatAlarmText(t, fault)).toBe('garageUi.heat.tagFault');
    // A fault with a reading but no limit: the reading, against "no limit".
    expect(heatAlarmText(t, { ...fault, TemperatureC: 81.5 })).toContain('garageUi.heat.noLimit');
  });

  it('tells when, where and why it was raised, the latest reading and the sessions it stopped', () => {
    const lines = heatAlarmLines(t, alarm);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('garageUi.heat.raised');
    expect(lines[0]).toContain('garageUi.heat.whereHost');
    expect(lines[0]).toContain('garage.heatTrigger.temperature');
    expect(lines[1]).toContain('garageUi.heat.last');
    expect(lines[1]).toContain('66.5');
    expect(lines[2]).toContain('"count":2');
    expect(heatAlarmLines(t, { ...alarm, Sessions: [], LastReadingAt: null })).toEqual([
      expect.stringContaining('garageUi.heat.raised'),
      'garageUi.heat.noSessions',
    ]);
  });

  it('shows a red tag, and a banner whose clear action only the Admin code gets', () => {
    render(<HeatAlarmTag alarm={alarm} />);
    expect(screen.getByTestId('heat-alarm-tag').className).toContain('error');
    cleanup();
    render(<HeatAlarmBanner host={{ Id: 8, Name: alarm.HostName }} alarm={alarm} />);
    fireEvent.click(screen.getByTestId('heat-alarm-clear'));
    expect(useGarageDialogs.getState().clearHeatAlarm).toEqual({
      hostId: 8,
      hostName: alarm.HostName,
      alarm,
    });
    cleanup();
    admin = false;
    render(<HeatAlarmBanner host={{ Id: 8, Name: alarm.HostName }} alarm={alarm} />);
    expect(screen.getByTestId('heat-alarm-banner')).toBeTruthy();
    expect(screen.queryByTestId('heat-alarm-clear')).toBeNull();
    admin = true;
    // antd's first render is slow on a busy machine.
  }, 30_000);

  it('clears with a note only: nothing is sent without one', async () => {
    call.mockResolvedValue({ ...alarm, ClearedAt: '2026-11-01T09:00:00.000Z', Note: '风扇已更换' });
    const client = new QueryClient();
    render(
      <QueryClientProvider client={client}>
        <ClearHeatAlarmDialog />
      </QueryClientProvider>,
    );
    useGarageDialogs.setState({ clearHeatAlarm: { hostId: 8, hostName: alarm.HostName, alarm } });
    const ok = await screen.findByTestId('heat-alarm-clear-ok');
    fireEvent.click(ok);
    await waitFor(() => expect(document.querySelector('.ant-form-item-explain-error')).not.toBeNull());
    expect(call).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId('heat-alarm-note'), { target: { value: ' 风扇已更换 ' } });
    fireEvent.click(ok);
    await waitFor(() => expect(call).toHaveBeenCalled());
    expect(call).toHaveBeenCalledWith(ChargeHostApi.clearAlarm, { body: { Id: 8, Note: '风扇已更换' } });
    await waitFor(() =>
      expect(success).toHaveBeenCalledWith(expect.stringContaining('garageUi.heat.cleared')),
    );
    expect(useGarageDialogs.getState().clearHeatAlarm).toBeNull();
  }, 30_000);
});
