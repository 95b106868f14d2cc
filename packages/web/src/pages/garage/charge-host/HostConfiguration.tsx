import type { ChargerConfiguration, ConfigurationOutcome } from '@gatehouse/shared';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatSiteTime } from '../../../core/site-time.ts';
import '../garage.css';

/**
 * The colour of a key's outcome: in place (already set or accepted), waiting on the charger (reboot required),
 * refused (rejected, not supported, read-only), or unknown (no answer).
 */
export function outcomeColor(outcome: ConfigurationOutcome): 'success' | 'warning' | 'error' | 'default' {
  switch (outcome) {
    case 'Unchanged':
    case 'Accepted':
      return 'success';
    case 'RebootRequired':
      return 'warning';
    case 'Rejected':
    case 'NotSupported':
    case 'ReadOnly':
      return 'error';
    case 'NotAnswered':
      return 'default';
  }
}

/**
 * What a charging-API host's charger did with the configuration Gatehouse wants (docs/chargers.md,
 * "Configured by Gatehouse"): a tag per key with its outcome (what was read and wanted on hover), Temperature
 * left out where the charger has none, its feature profiles, and when and why the pass ran.
 */
export function HostConfiguration({ configuration }: { configuration: ChargerConfiguration | null }) {
  const { t } = useTranslation();
  if (!configuration)
    return (
      <Typography.Text type="secondary" data-testid="host-config-none">
        {t('garageUi.config.none')}
      </Typography.Text>
    );
  const { At, Trigger, Profiles, ReadError, Keys } = configuration;
  return (
    <Space size={4} orientation="vertical" data-testid="host-config">
      {ReadError ? (
        <Tag color="error" data-testid="host-config-read-error">
          {t('garageUi.config.readError', { error: ReadError })}
        </Tag>
      ) : (
        <Space size={[4, 4]} wrap>
          {Keys.map((k) => (
            <Tag
              key={k.Key}
              color={outcomeColor(k.Outcome)}
              data-testid="host-config-key"
              data-outcome={k.Outcome}
              title={`${k.Key}: ${t('garageUi.config.detail', {
                read: k.Read ?? t('garageUi.config.absent'),
                wanted: k.Wanted,
              })}`}
            >
              {t(`garageUi.config.key.${k.Key}`, { defaultValue: k.Key })}:{' '}
              {t(`garageUi.config.outcome.${k.Outcome}`)}
            </Tag>
          ))}
          {Keys.some((k) => k.Note === 'noTemperature') && (
            <Tag color="warning" data-testid="host-config-no-temperature">
              {t('garageUi.config.noTemperature')}
            </Tag>
          )}
        </Space>
      )}
      <Typography.Text
        type="secondary"
        className="garage-occupancy-detail"
        data-testid="host-config-profiles"
      >
        {Profiles
          ? t('garageUi.config.profiles', { profiles: Profiles.join(', ') })
          : t('garageUi.config.noProfiles')}
      </Typography.Text>
      <Typography.Text type="secondary" className="garage-occupancy-detail" data-testid="host-config-at">
        {t('garageUi.config.at', {
          time: formatSiteTime(At),
          trigger: t(`garageUi.config.trigger.${Trigger}`),
        })}
      </Typography.Text>
    </Space>
  );
}
