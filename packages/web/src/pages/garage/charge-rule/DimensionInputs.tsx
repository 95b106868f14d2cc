import { Button, InputNumber, Space, TimePicker, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  MAX_BAND_W,
  MAX_POWER_BANDS,
  MAX_PRICE_CENTS,
  MAX_TIME_OF_DAY_PERIODS,
  formatCents,
  isTimeOfDay,
  overlappingPeriods,
  uncoveredTimes,
  type PowerBand,
  type TimeOfDayPeriod,
} from '@gatehouse/shared';
import { yuanToCents } from '../../../components/list-page/FormDialog.tsx';

/**
 * The rule form's list editors of the tariff dimensions (docs/garage.md, "Tariff dimensions"): one row per power
 * band or time-of-day period, added and removed, prices typed in yuan and held in cents as the API takes them.
 * Each is one form field (its Form.Item holds the list): the shared `tariffProblems` check and the server's
 * messages ("PowerBands.1.UpToW") land on the list, as on any field.
 */

interface ListInputProps<T> {
  id?: string;
  value?: T[] | null;
  onChange?: (value: T[]) => void;
}

/** A money input in yuan for a price held in cents. */
function YuanInput(props: {
  cents: number | null | undefined;
  onCents: (cents: number | null) => void;
  per: string;
  label: string;
  testId: string;
}) {
  return (
    <InputNumber
      value={typeof props.cents === 'number' ? Number(formatCents(props.cents)) : null}
      onChange={(yuan) => props.onCents(typeof yuan === 'number' ? yuanToCents(yuan) : null)}
      min={0}
      max={MAX_PRICE_CENTS / 100}
      precision={2}
      prefix="¥"
      suffix={`/ ${props.per}`}
      aria-label={props.label}
      style={{ width: 190 }}
      data-testid={props.testId}
    />
  );
}

/** Replaces item `index` of a list with `patch` applied. */
function patched<T>(list: readonly T[], index: number, patch: Partial<T>): T[] {
  return list.map((item, i) => (i === index ? { ...item, ...patch } : item));
}

/** Power bands: up to how many W, and the price per started hour; ascending, as the shared check says. */
export function PowerBandsInput({ id, value, onChange }: ListInputProps<PowerBand>) {
  const { t } = useTranslation();
  const bands = value ?? [];
  const set = (next: PowerBand[]) => onChange?.(next);
  return (
    <Space id={id} direction="vertical" size={8} style={{ width: '100%' }} data-testid="field-PowerBands">
      {bands.map((band, i) => (
        <Space key={i} wrap size={8} data-testid={`band-${i}`}>
          <Typography.Text style={{ display: 'inline-block', minWidth: 56 }}>
            {t('garageUi.rule.band', { n: i + 1 })}
          </Typography.Text>
          <InputNumber
            value={band.UpToW}
            onChange={(w) => set(patched(bands, i, { UpToW: typeof w === 'number' ? w : 0 }))}
            min={1}
            max={MAX_BAND_W}
            precision={0}
            suffix="W"
            aria-label={`${t('garageUi.rule.band', { n: i + 1 })} ${t('garageUi.rule.bandUpTo')}`}
            placeholder={t('garageUi.rule.bandUpTo')}
            style={{ width: 150 }}
            data-testid={`band-${i}-UpToW`}
          />
          <YuanInput
            cents={band.PriceCents}
            onCents={(c) => set(patched(bands, i, { PriceCents: c ?? 0 }))}
            per={t('unit.hour')}
            label={`${t('garageUi.rule.band', { n: i + 1 })} ${t('garageUi.rule.bandPrice')}`}
            testId={`band-${i}-PriceCents`}
          />
          <Button size="small" type="link" danger onClick={() => set(bands.filter((_, j) => j !== i))}>
            {t('garageUi.rule.remove')}
          </Button>
        </Space>
      ))}
      {bands.length < MAX_POWER_BANDS && (
        <Button
          type="dashed"
          size="small"
          onClick={() => {
            // A new band starts above the last one, so the list stays ascending as typed.
            const last = bands[bands.length - 1];
            set([...bands, { UpToW: last ? Math.min(MAX_BAND_W, last.UpToW + 100) : 200, PriceCents: 0 }]);
          }}
          data-testid="band-add"
        >
          + {t('garageUi.rule.addBand')}
        </Button>
      )}
    </Space>
  );
}

const toPicker = (text: string): Dayjs | null =>
  isTimeOfDay(text)
    ? dayjs()
        .startOf('day')
        .hour(Number(text.slice(0, 2)))
        .minute(Number(text.slice(3)))
    : null;

/** Time-of-day periods: from, to ("HH:mm", the area's clock) and the price per kWh; what none covers is named. */
export function TimeOfDayInput({ id, value, onChange }: ListInputProps<TimeOfDayPeriod>) {
  const { t } = useTranslation();
  const periods = value ?? [];
  const set = (next: TimeOfDayPeriod[]) => onChange?.(next);
  const wellFormed = periods.length > 0 && periods.every((p) => isTimeOfDay(p.From) && isTimeOfDay(p.To));
  const gaps = wellFormed && !overlappingPeriods(periods) ? uncoveredTimes(periods) : [];
  const time = (i: number, end: 'From' | 'To') => (
    <TimePicker
      value={toPicker(periods[i]![end])}
      onChange={(v: Dayjs | null) => set(patched(periods, i, { [end]: v ? v.format('HH:mm') : '' }))}
      format="HH:mm"
      needConfirm={false}
      allowClear={false}
      aria-label={`${i + 1} ${t(end === 'From' ? 'garageUi.rule.periodFrom' : 'garageUi.rule.periodTo')}`}
      placeholder={t(end === 'From' ? 'garageUi.rule.periodFrom' : 'garageUi.rule.periodTo')}
      style={{ width: 110 }}
      data-testid={`period-${i}-${end}`}
    />
  );
  return (
    <Space id={id} direction="vertical" size={8} style={{ width: '100%' }} data-testid="field-TimeOfDay">
      {periods.map((_, i) => (
        <Space key={i} wrap size={8} data-testid={`period-${i}`}>
          {time(i, 'From')}
          <span aria-hidden>–</span>
          {time(i, 'To')}
          <YuanInput
            cents={periods[i]!.PriceCentsPerKWh}
            onCents={(c) => set(patched(periods, i, { PriceCentsPerKWh: c ?? 0 }))}
            per={t('unit.kWh')}
            label={`${i + 1} ${t('garageUi.rule.periodPrice')}`}
            testId={`period-${i}-PriceCentsPerKWh`}
          />
          <Button size="small" type="link" danger onClick={() => set(periods.filter((_, j) => j !== i))}>
            {t('garageUi.rule.remove')}
          </Button>
        </Space>
      ))}
      {periods.length < MAX_TIME_OF_DAY_PERIODS && (
        <Button
          type="dashed"
          size="small"
          onClick={() => {
            // A new period runs from where the last one ends to where the first one starts: the rest of the day.
            const last = periods[periods.length - 1];
            const next = last ? { From: last.To, To: periods[0]!.From } : { From: '08:00', To: '22:00' };
            set([...periods, { ...next, PriceCentsPerKWh: 0 }]);
          }}
          data-testid="period-add"
        >
          + {t('garageUi.rule.addPeriod')}
        </Button>
      )}
      {gaps.length > 0 && (
        <Typography.Text type="secondary" data-testid="period-uncovered">
          {t('garageUi.rule.uncovered', { times: gaps.map((g) => `${g.From}–${g.To}`).join(', ') })}
        </Typography.Text>
      )}
    </Space>
  );
}
