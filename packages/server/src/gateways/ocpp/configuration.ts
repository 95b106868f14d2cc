import type { ConfigurationKeyReport, ConfigurationOutcome } from '@gatehouse/shared';
import type { ConfigurationPass } from '../../modules/garage/index.ts';
import type { GetConfigurationConf, OutboundActions } from './messages.gen.ts';

/**
 * Chargers configured by Gatehouse (issue 30; docs/chargers.md, "Configured by Gatehouse"): one pass reads
 * every key (GetConfiguration) and changes, once each, the keys that do not hold what the safety rules need:
 * the measurands they read (power for the power limit and "full", the energy register for the bill,
 * temperature where the charger has it), a sample interval short enough for them to act on, and a
 * transaction that ends when the bike is unplugged. Nothing here loops: a refusal is recorded, never retried,
 * except one retry of the measurands without Temperature, which is the one measurand a charger may lack.
 */

/** The measurands the rules read, in the order added to the charger's own. */
export const NEEDED_MEASURANDS = ['Energy.Active.Import.Register', 'Power.Active.Import'] as const;
/** Read where the charger has a sensor (over-temperature stops, OUTWARD.md "E-bike charging rules"). */
export const TEMPERATURE = 'Temperature';
/** The longest sample interval the safety rules can live with (seconds): a 5-minute power window needs 10. */
export const MAX_SAMPLE_INTERVAL_S = 30;

export const SAMPLED_DATA = 'MeterValuesSampledData';
export const SAMPLE_INTERVAL = 'MeterValueSampleInterval';
export const STOP_ON_UNPLUG = 'StopTransactionOnEVSideDisconnect';
const SAMPLED_DATA_MAX = 'MeterValuesSampledDataMaxLength';
const PROFILES = 'SupportedFeatureProfiles';

/** A key as GetConfiguration listed it. */
interface ReadKey {
  readonly: boolean;
  value: string | undefined;
}

/** What the pass asks of one key. */
export interface WantedKey {
  key: string;
  read: string | null;
  wanted: string;
  /** Holds it already: nothing is sent. */
  unchanged: boolean;
  readonly: boolean;
  note: string | null;
  /** The list to send once more when the charger refuses `wanted` (measurands without Temperature). */
  fallback: string | null;
}

const list = (value: string | undefined | null): string[] =>
  (value ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((m) => b.includes(m));

/**
 * The values wanted for a charger, from what it reported: pure, so the rules are tested without a charger.
 * The charger's other measurands are kept; Temperature is left out up front when its
 * MeterValuesSampledDataMaxLength leaves no room for it, else asked for with a fallback without it.
 */
export function wantedConfiguration(read: ReadonlyMap<string, ReadKey>): WantedKey[] {
  const entry = (key: string, wanted: string, unchanged: boolean, extra: Partial<WantedKey> = {}) => {
    const r = read.get(key);
    return {
      key,
      read: r?.value ?? null,
      wanted,
      unchanged,
      readonly: r?.readonly ?? false,
      note: null,
      fallback: null,
      ...extra,
    };
  };

  const has = read.get(SAMPLED_DATA);
  const current = list(has?.value);
  const needed = [...current, ...NEEDED_MEASURANDS.filter((m) => !current.includes(m))];
  const withTemperature = needed.includes(TEMPERATURE) ? needed : [...needed, TEMPERATURE];
  const max = Number(read.get(SAMPLED_DATA_MAX)?.value);
  const room = !Number.isInteger(max) || max <= 0 || withTemperature.length <= max;
  const measurands = room ? withTemperature : needed;
  const sampled = entry(
    SAMPLED_DATA,
    measurands.join(','),
    has !== undefined && sameSet(current, measurands),
    {
      note: room ? null : 'noTemperature',
      // Only Temperature that Gatehouse added is taken back; one the charger listed itself is its own.
      fallback: room && !needed.includes(TEMPERATURE) ? needed.join(',') : null,
    },
  );

  const interval = read.get(SAMPLE_INTERVAL)?.value;
  const seconds = Number(interval);
  const short =
    interval !== undefined && Number.isInteger(seconds) && seconds > 0 && seconds <= MAX_SAMPLE_INTERVAL_S;
  const sample = entry(SAMPLE_INTERVAL, short ? interval : String(MAX_SAMPLE_INTERVAL_S), short);

  const unplug = read.get(STOP_ON_UNPLUG)?.value;
  const stop = entry(STOP_ON_UNPLUG, 'true', unplug?.trim().toLowerCase() === 'true');
  return [sampled, sample, stop];
}

/** The feature profiles a charger listed (SupportedFeatureProfiles), null when it did not. */
export function featureProfiles(read: ReadonlyMap<string, ReadKey>): string[] | null {
  const profiles = read.get(PROFILES);
  return profiles ? list(profiles.value) : null;
}

/** The keys of a GetConfiguration answer by name. */
export function readKeys(conf: GetConfigurationConf): Map<string, ReadKey> {
  return new Map((conf.configurationKey ?? []).map((k) => [k.key, { readonly: k.readonly, value: k.value }]));
}

/** How the pass calls its charge point (the connection's call, with the pass's timeout). */
export type ConfigurationCall = <A extends 'GetConfiguration' | 'ChangeConfiguration'>(
  action: A,
  payload: OutboundActions[A]['req'],
) => Promise<OutboundActions[A]['conf']>;

/** A CallError's code (the charger answered, with an error); undefined for a timeout or a lost connection. */
const callErrorCode = (error: unknown): string | undefined => {
  const code = (error as { rpcErrorCode?: unknown } | null)?.rpcErrorCode;
  return typeof code === 'string' ? code : undefined;
};

/**
 * One configuration pass: GetConfiguration (all keys), then ChangeConfiguration once for each key that differs
 * and is not read-only (the measurands once more without Temperature when refused with it). A timeout or a lost
 * connection ends the pass: the keys not yet sent read "not answered". Never throws: what went wrong is in it.
 */
export async function configurationPass(
  call: ConfigurationCall,
  trigger: ConfigurationPass['trigger'],
  now: () => number,
): Promise<ConfigurationPass> {
  let read: Map<string, ReadKey>;
  try {
    read = readKeys(await call('GetConfiguration', {}));
  } catch (error) {
    return { at: now(), trigger, profiles: null, readError: callErrorCode(error) ?? 'NotAnswered', keys: [] };
  }
  const keys: ConfigurationKeyReport[] = [];
  let reachable = true;
  const change = async (key: string, value: string): Promise<ConfigurationOutcome> => {
    if (!reachable) return 'NotAnswered';
    try {
      return (await call('ChangeConfiguration', { key, value })).status;
    } catch (error) {
      if (callErrorCode(error) === undefined) reachable = false;
      return 'NotAnswered';
    }
  };
  for (const want of wantedConfiguration(read)) {
    const report = { Key: want.key, Read: want.read, Wanted: want.wanted, Note: want.note };
    if (want.unchanged) {
      keys.push({ ...report, Outcome: 'Unchanged' });
      continue;
    }
    if (want.readonly) {
      keys.push({ ...report, Outcome: 'ReadOnly' });
      continue;
    }
    const outcome = await change(want.key, want.wanted);
    if (outcome !== 'Rejected' || want.fallback === null) {
      keys.push({ ...report, Outcome: outcome });
      continue;
    }
    // Refused with Temperature: once without it, or nothing when that is what it holds already.
    const unchanged = want.read !== null && sameSet(list(want.read), list(want.fallback));
    keys.push({
      ...report,
      Wanted: want.fallback,
      Note: 'noTemperature',
      Outcome: unchanged ? 'Unchanged' : await change(want.key, want.fallback),
    });
  }
  return { at: now(), trigger, profiles: featureProfiles(read), readError: null, keys };
}
