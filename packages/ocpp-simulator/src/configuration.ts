/** Configuration keys answered by GetConfiguration; the writable ones can be changed by ChangeConfiguration. */
export const READONLY_KEYS = new Set([
  'NumberOfConnectors',
  'SupportedFeatureProfiles',
  'MeterValuesSampledData',
]);

/**
 * A charge point's configuration keys (OCPP 1.6 core profile): read by GetConfiguration, changed by
 * ChangeConfiguration. The two intervals are numbers of seconds above 0; a change is reported to the charge
 * point (`onInterval`), which restarts its timers.
 */
export class Configuration {
  private readonly values = new Map<string, string>();

  constructor(
    initial: { heartbeatSeconds: number; meterSeconds: number; connectors: number },
    private readonly onInterval: (
      key: 'HeartbeatInterval' | 'MeterValueSampleInterval',
      seconds: number,
    ) => void,
  ) {
    this.values.set('HeartbeatInterval', String(initial.heartbeatSeconds));
    this.values.set('MeterValueSampleInterval', String(initial.meterSeconds));
    this.values.set('NumberOfConnectors', String(initial.connectors));
    this.values.set('SupportedFeatureProfiles', 'Core,RemoteTrigger');
    this.values.set('MeterValuesSampledData', 'Energy.Active.Import.Register,Power.Active.Import');
    this.values.set('ConnectionTimeOut', '60');
  }

  /** A value the charge point set itself (the heartbeat interval a BootNotification gave). */
  note(key: string, value: string): void {
    this.values.set(key, value);
  }

  /** GetConfiguration: the known keys asked for (all when none), and the unknown ones. */
  get(keys: string[] | undefined) {
    const asked = keys ?? [...this.values.keys()];
    const configurationKey = asked
      .filter((key) => this.values.has(key))
      .map((key) => ({ key, readonly: READONLY_KEYS.has(key), value: this.values.get(key)! }));
    const unknownKey = asked.filter((key) => !this.values.has(key));
    return { configurationKey, ...(unknownKey.length > 0 ? { unknownKey } : {}) };
  }

  /** ChangeConfiguration. */
  change(key: string, value: string): 'Accepted' | 'Rejected' | 'NotSupported' {
    if (!this.values.has(key)) return 'NotSupported';
    if (READONLY_KEYS.has(key)) return 'Rejected';
    const interval = key === 'HeartbeatInterval' || key === 'MeterValueSampleInterval';
    const seconds = Number(value);
    if (interval && !(seconds > 0)) return 'Rejected';
    this.values.set(key, value);
    if (interval) this.onInterval(key, seconds);
    return 'Accepted';
  }
}
