/** Configuration keys answered by GetConfiguration; the writable ones can be changed by ChangeConfiguration. */
export const READONLY_KEYS = new Set(['NumberOfConnectors', 'SupportedFeatureProfiles']);

/** The measurands of OCPP 1.6 (7.31): MeterValuesSampledData takes a comma-separated list of these only. */
export const MEASURANDS: ReadonlySet<string> = new Set([
  'Current.Export',
  'Current.Import',
  'Current.Offered',
  'Energy.Active.Export.Register',
  'Energy.Active.Import.Register',
  'Energy.Reactive.Export.Register',
  'Energy.Reactive.Import.Register',
  'Energy.Active.Export.Interval',
  'Energy.Active.Import.Interval',
  'Energy.Reactive.Export.Interval',
  'Energy.Reactive.Import.Interval',
  'Frequency',
  'Power.Active.Export',
  'Power.Active.Import',
  'Power.Factor',
  'Power.Offered',
  'Power.Reactive.Export',
  'Power.Reactive.Import',
  'RPM',
  'SoC',
  'Temperature',
  'Voltage',
]);

/** What this simulated charger meters (the others are known but it has no sensor for them). */
const METERED = new Set(['Energy.Active.Import.Register', 'Power.Active.Import', 'Temperature']);

/**
 * A charge point's configuration keys (OCPP 1.6 core profile): read by GetConfiguration, changed by
 * ChangeConfiguration. The two intervals are numbers of seconds above 0; a change is reported to the charge
 * point (`onInterval`), which restarts its timers. MeterValuesSampledData takes known measurands the charger
 * meters; Temperature only with a sensor (`temperature`), else the list is Rejected, as a charger without one
 * answers. StopTransactionOnEVSideDisconnect is a boolean (stored: the simulated unplug always ends the
 * transaction).
 */
export class Configuration {
  private readonly values = new Map<string, string>();
  private readonly temperature: boolean;

  constructor(
    initial: {
      heartbeatSeconds: number;
      meterSeconds: number;
      connectors: number;
      temperature?: boolean;
      smartCharging?: boolean;
    },
    private readonly onInterval: (
      key: 'HeartbeatInterval' | 'MeterValueSampleInterval',
      seconds: number,
    ) => void,
  ) {
    this.temperature = initial.temperature ?? false;
    this.values.set('HeartbeatInterval', String(initial.heartbeatSeconds));
    this.values.set('MeterValueSampleInterval', String(initial.meterSeconds));
    this.values.set('NumberOfConnectors', String(initial.connectors));
    this.values.set(
      'SupportedFeatureProfiles',
      initial.smartCharging ? 'Core,RemoteTrigger,SmartCharging' : 'Core,RemoteTrigger',
    );
    this.values.set('MeterValuesSampledData', 'Energy.Active.Import.Register,Power.Active.Import');
    this.values.set('StopTransactionOnEVSideDisconnect', 'true');
    this.values.set('ConnectionTimeOut', '60');
  }

  /** A value the charge point set itself (the heartbeat interval a BootNotification gave). */
  note(key: string, value: string): void {
    this.values.set(key, value);
  }

  /** The measurands its MeterValues carry (MeterValuesSampledData). */
  measurands(): Set<string> {
    return new Set(this.values.get('MeterValuesSampledData')!.split(','));
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
    if (!this.valid(key, value)) return 'Rejected';
    const interval = key === 'HeartbeatInterval' || key === 'MeterValueSampleInterval';
    this.values.set(key, key === 'StopTransactionOnEVSideDisconnect' ? value.toLowerCase() : value);
    if (interval) this.onInterval(key, Number(value));
    return 'Accepted';
  }

  private valid(key: string, value: string): boolean {
    switch (key) {
      case 'HeartbeatInterval':
      case 'MeterValueSampleInterval':
        return Number(value) > 0;
      case 'StopTransactionOnEVSideDisconnect':
        return ['true', 'false'].includes(value.toLowerCase());
      case 'MeterValuesSampledData': {
        const list = value.split(',');
        return list.every(
          (m) => MEASURANDS.has(m) && METERED.has(m) && (m !== 'Temperature' || this.temperature),
        );
      }
      default:
        return true;
    }
  }
}
