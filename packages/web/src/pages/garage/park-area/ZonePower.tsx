import type { ReactNode } from 'react';
import { Progress, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  POWER_BUDGET_MAX_W,
  POWER_BUDGET_MIN_W,
  POWER_READING_FRESH_MS,
  type GarageSummary,
  type ParkAreaItem,
  type ZonePower,
} from '@gatehouse/shared';
import type { FieldDef } from '../../../components/list-page/index.ts';
import { formatSiteTime } from '../../../core/site-time.ts';
import { socketsHref } from '../options.ts';
import './zone-power.css';

/**
 * A zone's live draw against its power budget (docs/garage.md "Zone power budget"), the same on the zone list,
 * the socket grid and the dashboard: the draw of the readings that are recent, a bar against the budget coloured
 * by where it stands (at the budget new charging is refused; above it Gatehouse limits or stops sessions once
 * the grace has passed), and what is not known said as such: running sessions without a recent reading are not
 * in the figure, and the line says how many. A zone without a budget shows its draw alone.
 */
export function ZonePowerBar({ power, detail = 'inline' }: { power: ZonePower; detail?: 'inline' | 'none' }) {
  const { t } = useTranslation();
  const budget = power.BudgetW;
  const percent = budget ? Math.min(100, Math.round((power.DrawW / budget) * 100)) : 0;
  // What the figure leaves out, or what Gatehouse is doing about it: one line each. Said, not guessed: a running
  // session without a recent reading is in no figure.
  const notes: { key: string; text: ReactNode; warn: boolean }[] = [];
  if (power.MeteredSockets > 0)
    notes.push({
      key: 'metered',
      text: t('garageUi.zonePower.metered', {
        n: power.MeteredSockets,
        seconds: Math.round(POWER_READING_FRESH_MS / 1000),
      }),
      warn: false,
    });
  if (power.UnknownSessions > 0)
    notes.push({
      key: 'unknown',
      text: t('garageUi.zonePower.unknown', { n: power.UnknownSessions }),
      warn: true,
    });
  if (power.LimitedSessions > 0)
    notes.push({
      key: 'limited',
      text: t('garageUi.zonePower.limited', { n: power.LimitedSessions }),
      warn: false,
    });
  if (power.OverSince)
    notes.push({
      key: 'overSince',
      text: t('garageUi.zonePower.overSince', { time: formatSiteTime(power.OverSince, 'HH:mm:ss') }),
      warn: true,
    });
  return (
    <div className="zone-power" data-testid="zone-power" data-state={power.State}>
      <div className="zone-power-figures">
        <span className="list-page-nowrap" data-testid="zone-power-draw">
          {budget === null
            ? t('garageUi.zonePower.noBudget', { draw: power.DrawW })
            : t('garageUi.zonePower.ofBudget', { draw: power.DrawW, budget })}
        </span>
        {budget !== null && (
          <Progress
            percent={percent}
            size="small"
            showInfo={false}
            status={power.State === 'over' ? 'exception' : 'normal'}
            strokeColor={power.State === 'atBudget' ? STATE_COLOR.atBudget : undefined}
            style={{ width: 90, margin: 0 }}
            aria-label={t('garageUi.zonePower.label')}
          />
        )}
        {(power.State === 'atBudget' || power.State === 'over') && (
          <Tag color={power.State === 'over' ? 'red' : 'orange'} data-testid="zone-power-state">
            {t(`garageUi.zonePower.state.${power.State}`)}
          </Tag>
        )}
      </div>
      {detail === 'inline' && notes.length > 0 && (
        <Space orientation="vertical" size={0} className="zone-power-notes">
          {notes.map((note) => (
            <Typography.Text key={note.key} type={note.warn ? 'warning' : 'secondary'} data-note={note.key}>
              {note.text}
            </Typography.Text>
          ))}
        </Space>
      )}
    </div>
  );
}

/**
 * The zone form's budget field: whole watts within the server's bounds; emptied, it is sent as null and the
 * budget is removed.
 */
export const powerBudgetField: FieldDef<ParkAreaItem> = {
  name: 'PowerBudgetW',
  label: 'garage.field.PowerBudgetW',
  kind: 'number',
  min: POWER_BUDGET_MIN_W,
  max: POWER_BUDGET_MAX_W,
  extra: 'garageUi.zonePower.budgetHint',
};

/** Orange of a zone at its budget, dark enough against white (AA) beside the red of one above it. */
const STATE_COLOR = { atBudget: '#d46b08' } as const;

/**
 * The dashboard's zones with a power budget, busiest first (as the server orders them), each linking to its
 * sockets; nothing when the area has none.
 */
export function ZonePowerList({ zones }: { zones: GarageSummary['ZonePower'] }) {
  const { t } = useTranslation();
  if (zones.length === 0) return null;
  return (
    <section className="zone-power-list" data-testid="dashboard-zone-power">
      <Typography.Text strong>{t('garageUi.zonePower.dashboardTitle')}</Typography.Text>
      <ul>
        {zones.map((zone) => (
          <li key={zone.ParkAreaId} data-zone={zone.ParkAreaId}>
            <Link className="zone-power-name" to={socketsHref({ ParkAreaId: zone.ParkAreaId })}>
              {zone.ZoneName}
            </Link>
            <ZonePowerBar power={zone} />
          </li>
        ))}
      </ul>
    </section>
  );
}
