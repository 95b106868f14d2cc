import type { SettingsChanges } from '@gatehouse/shared';
import type { Db } from '../../../db/database.ts';
import { audit } from '../../../platform/audit.ts';
import type { Clock } from '../../../platform/clock.ts';
import type { Bus } from '../../../platform/cluster/index.ts';
import type { ServiceContext } from '../../../platform/context.ts';
import type { SettingValues, Settings } from '../../../platform/settings.ts';

export type { SettingValues } from '../../../platform/settings.ts';

type Key = keyof SettingValues;

/**
 * Read on every request (session lifetime, throttle), so values are cached in memory and the cache is
 * replaced on every write through this service: a change is effective without a restart.
 */
export class SettingsService implements Settings {
  private values: SettingValues;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly defaults: SettingValues,
    /** The cluster's bus: a change saved on one instance is loaded by the others at once. */
    private readonly bus?: Bus,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.values = { ...defaults };
    bus?.subscribe(CHANNEL, (_message, meta) => {
      if (!meta.local) this.load().catch(onError);
    });
    // Messages missed while the bus was reconnecting: read them again.
    bus?.onResync(() => this.load().catch(onError));
  }

  async load(): Promise<void> {
    const rows = await this.db.kysely.selectFrom('Setting').select(['Key', 'Value']).execute();
    const next: SettingValues = { ...this.defaults };
    for (const row of rows) {
      if (!(row.Key in next)) continue;
      const key = row.Key as Key;
      const fallback = this.defaults[key];
      (next as unknown as Record<string, string | number>)[key] =
        typeof fallback === 'number' ? Number(row.Value) || fallback : row.Value;
    }
    this.values = next;
  }

  get<K extends Key>(key: K): SettingValues[K] {
    return this.values[key];
  }

  all(): Readonly<SettingValues> {
    return this.values;
  }

  async set(changes: Partial<SettingValues>): Promise<void> {
    const now = this.clock.now();
    await this.db.kysely.transaction().execute(async (trx) => {
      for (const [key, value] of Object.entries(changes)) {
        await trx
          .insertInto('Setting')
          .values({ Key: key, Value: String(value), UpdatedAt: now })
          .onConflict((oc) => oc.column('Key').doUpdateSet({ Value: String(value), UpdatedAt: now }))
          .execute();
      }
    });
    await this.load();
    this.bus?.publish(CHANNEL, {}).catch(this.onError);
  }
}

/** The bus channel on which instances say that settings changed. */
const CHANNEL = 'settings';

/** Applies an operator's changes (absent fields stay) with one audit entry of before and after. */
export async function changeSettings(
  ctx: ServiceContext,
  settings: Settings,
  changes: SettingsChanges,
): Promise<SettingValues> {
  const before = { ...settings.all() };
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  await settings.set(set);
  await audit(ctx, { action: 'update', entity: 'Settings', before, after: settings.all() });
  return { ...settings.all() };
}
