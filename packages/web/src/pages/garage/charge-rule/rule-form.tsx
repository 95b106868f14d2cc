import { Form, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  MAX_FREE_MINUTES,
  MAX_IDLE_GRACE_MINUTES,
  MAX_PRICE_CENTS,
  TEMPORARY_CHARGE_TYPES_BY_CHARGE_TYPE,
  chargeType,
  isMonthlyChargeType,
  priceUnitKey,
  tariffProblems,
  temporaryChargeType,
  timeUnit,
  type Tariff,
} from '@gatehouse/shared';
import type { FormDef, FormProblem, Row, TKey } from '../../../components/list-page/index.ts';
import { zoneOptions } from '../options.ts';
import { PowerBandsInput, TimeOfDayInput } from './DimensionInputs.tsx';

type Values = Record<string, unknown>;

const isTemporary = (v: Values) => typeof v.ChargeType === 'number' && !isMonthlyChargeType(v.ChargeType);
const isMonthly = (v: Values) => typeof v.ChargeType === 'number' && isMonthlyChargeType(v.ChargeType);
/** Temporary charging: the rules the tariff dimensions fit (docs/garage.md, "Tariff dimensions"). */
const isCharging = (v: Values) => v.ChargeType === 3;
const isTimedOrMetered = (v: Values) =>
  isCharging(v) && (v.TemporaryChargeType === 1 || v.TemporaryChargeType === 2);
const isMetered = (v: Values) => isCharging(v) && v.TemporaryChargeType === 2;

/** The dimensions' fields: a rule of another type sends them as null, so an update removes what it had. */
const DIMENSION_FIELDS = [
  'PowerBands',
  'TimeOfDay',
  'IdleFeeCentsPerHour',
  'IdleGraceMinutes',
  'ServiceFeeCents',
] as const;

/**
 * The terms a body stands for, filled the way the server fills what a type leaves out (0 or null), so the
 * shared tariffProblems check sees what the server will see.
 */
export function termsOf(body: Values): Tariff {
  return {
    ChargeType: body.ChargeType as Tariff['ChargeType'],
    TemporaryChargeType: (body.TemporaryChargeType ?? 0) as Tariff['TemporaryChargeType'],
    UnitPriceCents: (body.UnitPriceCents ?? 0) as number,
    TimeUnit: (body.TimeUnit ?? null) as Tariff['TimeUnit'],
    FreeMinutes: (body.FreeMinutes ?? 0) as number,
    CapCents: (body.CapCents ?? null) as number | null,
    // The dimensions as given (absent: undefined, as the server keeps them).
    PowerBands: body.PowerBands as Tariff['PowerBands'],
    TimeOfDay: body.TimeOfDay as Tariff['TimeOfDay'],
    IdleFeeCentsPerHour: body.IdleFeeCentsPerHour as Tariff['IdleFeeCentsPerHour'],
    IdleGraceMinutes: body.IdleGraceMinutes as Tariff['IdleGraceMinutes'],
    ServiceFeeCents: body.ServiceFeeCents as Tariff['ServiceFeeCents'],
  };
}

/** The temporary charge types the chosen charge type allows (parking is never metered). */
function TemporaryTypeSelect(props: { value?: unknown; onChange?: (value: unknown) => void }) {
  const { t } = useTranslation();
  const type = Form.useWatch('ChargeType') as number | undefined;
  const allowed = TEMPORARY_CHARGE_TYPES_BY_CHARGE_TYPE[type ?? -1] ?? [];
  return (
    <Select
      {...props}
      value={props.value as number | undefined}
      placeholder={t('list.choose')}
      // Every type stays listed (a type chosen before the charge type changed keeps its label); the ones
      // the charge type does not allow are disabled, and the shared check explains a leftover one.
      options={temporaryChargeType.items
        .filter((i) => i.value !== 0)
        .map((i) => ({ value: i.value, label: t(i.key as never), disabled: !allowed.includes(i.value) }))}
      data-testid="field-TemporaryChargeType"
    />
  );
}

/** The unit price in yuan, with the unit it is per (小时, 度, 次, or the pass's time unit). */
function UnitPriceInput(props: { value?: unknown; onChange?: (value: unknown) => void }) {
  const { t } = useTranslation();
  const values = Form.useWatch([]) as Values | undefined;
  const unitKey =
    typeof values?.ChargeType === 'number'
      ? priceUnitKey({
          ChargeType: values.ChargeType as Tariff['ChargeType'],
          TemporaryChargeType: (values.TemporaryChargeType ?? 0) as Tariff['TemporaryChargeType'],
          TimeUnit: (values.TimeUnit ?? null) as Tariff['TimeUnit'],
        })
      : null;
  return (
    <InputNumber
      {...props}
      value={props.value as number | undefined}
      min={0}
      max={MAX_PRICE_CENTS / 100}
      precision={2}
      prefix="¥"
      suffix={unitKey ? `/ ${t(unitKey as TKey)}` : undefined}
      style={{ width: '100%' }}
      data-testid="field-UnitPriceCents"
    />
  );
}

/**
 * The rule dialog: the fields that apply to the chosen charge type only (a temporary charge type, grace
 * period and cap for temporary types; a time unit for monthly ones), checked with the shared tariff rule
 * before anything is sent.
 */
export function ruleForm<T extends Row>(): FormDef<T> {
  return {
    width: 760,
    fields: [
      { name: 'Name', label: 'garage.field.RuleName', kind: 'text', required: true, maxLength: 50 },
      {
        name: 'ChargeType',
        label: 'garage.field.ChargeType',
        kind: 'select',
        required: true,
        options: { kind: 'enum', def: chargeType },
      },
      {
        name: 'TemporaryChargeType',
        label: 'garage.field.TemporaryChargeType',
        kind: 'select',
        required: true,
        visible: isTemporary,
        render: () => <TemporaryTypeSelect />,
      },
      {
        name: 'TimeUnit',
        label: 'garage.field.TimeUnit',
        kind: 'select',
        required: true,
        visible: isMonthly,
        options: { kind: 'enum', def: timeUnit },
        extra: 'garageUi.rule.timeUnitHint',
      },
      {
        name: 'UnitPriceCents',
        label: 'garage.field.UnitPrice',
        kind: 'cents',
        required: true,
        render: () => <UnitPriceInput />,
      },
      {
        name: 'FreeMinutes',
        label: 'garage.field.FreeMinutes',
        kind: 'number',
        min: 0,
        max: MAX_FREE_MINUTES,
        visible: isTemporary,
        extra: 'garageUi.rule.freeMinutesHint',
      },
      {
        name: 'CapCents',
        label: 'garage.field.Cap',
        kind: 'cents',
        min: 1,
        max: MAX_PRICE_CENTS,
        visible: isTemporary,
        extra: 'garageUi.rule.capHint',
      },
      // The tariff dimensions, on temporary charging only (the shared check tells which fits which type).
      {
        name: 'PowerBands',
        label: 'garage.field.PowerBands',
        kind: 'text',
        wide: true,
        visible: isTimedOrMetered,
        extra: 'garageUi.rule.bandsHint',
        render: () => <PowerBandsInput />,
      },
      {
        name: 'TimeOfDay',
        label: 'garage.field.TimeOfDay',
        kind: 'text',
        wide: true,
        visible: isMetered,
        extra: 'garageUi.rule.periodsHint',
        render: () => <TimeOfDayInput />,
      },
      {
        name: 'IdleFeeCentsPerHour',
        label: 'garage.field.IdleFee',
        kind: 'cents',
        min: 0,
        max: MAX_PRICE_CENTS,
        visible: isCharging,
        extra: 'garageUi.rule.idleFeeHint',
      },
      {
        name: 'IdleGraceMinutes',
        label: 'garage.field.IdleGraceMinutes',
        kind: 'number',
        min: 0,
        max: MAX_IDLE_GRACE_MINUTES,
        visible: isCharging,
        extra: 'garageUi.rule.idleGraceHint',
      },
      {
        name: 'ServiceFeeCents',
        label: 'garage.field.ServiceFee',
        kind: 'cents',
        min: 0,
        max: MAX_PRICE_CENTS,
        visible: isCharging,
        extra: 'garageUi.rule.serviceFeeHint',
      },
      {
        name: 'ParkAreaIds',
        label: 'garage.field.ParkAreas',
        kind: 'multiSelect',
        options: zoneOptions,
        wide: true,
        extra: 'garageUi.rule.zonesHint',
      },
      { name: 'Remark', label: 'garage.field.Remark', kind: 'textarea', maxLength: 200 },
    ],
    toBody: (values, item) => ({
      ...values,
      ...(isTemporary(values)
        ? { FreeMinutes: values.FreeMinutes ?? 0, CapCents: values.CapCents ?? null }
        : {}),
      ParkAreaIds: values.ParkAreaIds ?? [],
      // An update sends every dimension, those the type does not show as null: the server keeps what a body
      // leaves out, and a rule changed to another type must lose them (an empty list is none too).
      ...(item ? Object.fromEntries(DIMENSION_FIELDS.map((f) => [f, values[f] ?? null])) : {}),
    }),
    check: (body): FormProblem[] =>
      typeof body.ChargeType === 'number'
        ? tariffProblems(termsOf(body)).map((p) => ({ field: p.field, key: p.key, params: p.params }))
        : [],
  };
}
