import { cleanup, render, screen } from '@testing-library/react';
import type { ChargerConfiguration } from '@gatehouse/shared';
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
    t: (key: string, values?: Record<string, unknown>) =>
      values && !('defaultValue' in values) ? `${key} ${JSON.stringify(values)}` : key,
  }),
}));

const { HostConfiguration, outcomeColor } =
  await import('../src/pages/garage/charge-host/HostConfiguration.tsx');

const pass: ChargerConfiguration = {
  At: '2026-11-01T08:00:00.000Z',
  Trigger: 'boot',
  Profiles: ['Core', 'RemoteTrigger'],
  ReadError: null,
  Keys: [
    {
      Key: 'MeterValuesSampledData',
      Read: 'Energy.Active.Import.Register',
      Wanted: 'Energy.Active.Import.Register,Power.Active.Import',
      Outcome: 'Accepted',
      Note: 'noTemperature',
    },
    { Key: 'MeterValueSampleInterval', Read: '60', Wanted: '30', Outcome: 'ReadOnly', Note: null },
    {
      Key: 'StopTransactionOnEVSideDisconnect',
      Read: null,
      Wanted: 'true',
      Outcome: 'RebootRequired',
      Note: null,
    },
  ],
};

afterEach(cleanup);

describe('a host screen shows what its charger did with the configuration', () => {
  it('shows a tag per key with its outcome and colour, what was read and wanted, no temperature, profiles, time', () => {
    render(<HostConfiguration configuration={pass} />);
    const tags = screen.getAllByTestId('host-config-key');
    expect(tags.map((t) => [t.textContent, t.dataset.outcome])).toEqual([
      ['garageUi.config.key.MeterValuesSampledData: garageUi.config.outcome.Accepted', 'Accepted'],
      ['garageUi.config.key.MeterValueSampleInterval: garageUi.config.outcome.ReadOnly', 'ReadOnly'],
      [
        'garageUi.config.key.StopTransactionOnEVSideDisconnect: garageUi.config.outcome.RebootRequired',
        'RebootRequired',
      ],
    ]);
    expect(tags[0]!.className).toMatch(/success/);
    expect(tags[1]!.className).toMatch(/error/);
    expect(tags[2]!.className).toMatch(/warning/);
    expect(tags[1]!.title).toBe(
      'MeterValueSampleInterval: garageUi.config.detail {"read":"60","wanted":"30"}',
    );
    expect(tags[2]!.title).toContain('"read":"garageUi.config.absent"');
    expect(screen.getByTestId('host-config-no-temperature').textContent).toBe(
      'garageUi.config.noTemperature',
    );
    expect(screen.getByTestId('host-config-profiles').textContent).toBe(
      'garageUi.config.profiles {"profiles":"Core, RemoteTrigger"}',
    );
    expect(screen.getByTestId('host-config-at').textContent).toContain('garageUi.config.trigger.boot');
  });

  it('says when nothing was read yet, or why the read failed', () => {
    render(<HostConfiguration configuration={null} />);
    expect(screen.getByTestId('host-config-none').textContent).toBe('garageUi.config.none');
    cleanup();
    render(
      <HostConfiguration
        configuration={{ ...pass, ReadError: 'NotImplemented', Keys: [], Profiles: null }}
      />,
    );
    expect(screen.getByTestId('host-config-read-error').textContent).toBe(
      'garageUi.config.readError {"error":"NotImplemented"}',
    );
    expect(screen.queryAllByTestId('host-config-key')).toEqual([]);
    expect(screen.getByTestId('host-config-profiles').textContent).toBe('garageUi.config.noProfiles');
  });

  it('colours refusals apart from what is in place and what waits on the charger', () => {
    expect(outcomeColor('Unchanged')).toBe('success');
    expect(outcomeColor('NotSupported')).toBe('error');
    expect(outcomeColor('Rejected')).toBe('error');
    expect(outcomeColor('NotAnswered')).toBe('default');
  });
});
