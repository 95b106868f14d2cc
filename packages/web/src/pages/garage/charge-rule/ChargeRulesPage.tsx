import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  ChargeRuleApi,
  chargeType,
  isMonthlyChargeType,
  temporaryChargeType,
  BICYCLE_ADMIN,
  BICYCLE_ANY,
  type ChargeRuleItem,
} from '@gatehouse/shared';
import { CentsCell, EnumCell, ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { PriceCell } from '../cells.tsx';
import { zoneOptions } from '../options.ts';
import { RuleDimensions } from './RuleDimensions.tsx';
import { ruleForm } from './rule-form.tsx';

const notApplicable = <Typography.Text type="secondary">-</Typography.Text>;

/** Charge rules: every charge type with the terms that apply to it, and the zones that use each rule. */
const config: ListPageConfig<ChargeRuleItem> = {
  api: ChargeRuleApi,
  read: BICYCLE_ANY,
  write: BICYCLE_ADMIN,
  actions: { create: true, edit: true, remove: true, batchRemove: true, status: true, export: true },
  invalidates: ['garage.rules', 'garage.monthlyRules'],
  refreshes: ['ParkArea'],
  defaultSort: { field: 'ChargeType', order: 'asc' },
  filters: [
    { name: 'Name', label: 'garage.field.RuleName', kind: 'text' },
    {
      name: 'ChargeType',
      label: 'garage.field.ChargeType',
      kind: 'select',
      options: { kind: 'enum', def: chargeType },
    },
    {
      name: 'TemporaryChargeType',
      label: 'garage.field.TemporaryChargeType',
      kind: 'select',
      options: {
        kind: 'static',
        options: (t) =>
          temporaryChargeType.items
            .filter((i) => i.value !== 0)
            .map((i) => ({ value: i.value, label: t(i.key as never) })),
      },
    },
    { name: 'ParkAreaId', label: 'garage.field.ParkAreas', kind: 'select', options: zoneOptions },
    { name: 'Disabled', label: 'garage.field.Status', kind: 'bool' },
  ],
  columns: [
    { key: 'Name', title: 'garage.field.RuleName', sort: 'Name', width: 170 },
    {
      key: 'ChargeType',
      title: 'garage.field.ChargeType',
      kind: 'enum',
      enumDef: chargeType,
      sort: 'ChargeType',
      width: 150,
    },
    {
      key: 'TemporaryChargeType',
      title: 'garage.field.TemporaryChargeType',
      width: 110,
      render: (row) =>
        isMonthlyChargeType(row.ChargeType) ? (
          notApplicable
        ) : (
          <EnumCell def={temporaryChargeType} value={row.TemporaryChargeType} />
        ),
    },
    {
      key: 'UnitPriceCents',
      title: 'garage.field.UnitPrice',
      sort: 'UnitPriceCents',
      width: 130,
      render: (row) => <PriceCell cents={row.UnitPriceCents} unitKey={row.PriceUnitKey} />,
    },
    {
      key: 'FreeMinutes',
      title: 'garage.field.FreeMinutes',
      width: 130,
      render: (row) => (isMonthlyChargeType(row.ChargeType) ? notApplicable : row.FreeMinutes),
    },
    {
      key: 'CapCents',
      title: 'garage.field.Cap',
      width: 120,
      render: (row, t) =>
        isMonthlyChargeType(row.ChargeType) ? (
          notApplicable
        ) : row.CapCents === null ? (
          <Typography.Text type="secondary">{t('garageUi.rule.noCap')}</Typography.Text>
        ) : (
          <CentsCell value={row.CapCents} />
        ),
    },
    { key: 'Disabled', title: 'garage.field.Status', kind: 'status', width: 100 },
    {
      key: 'ParkAreas',
      title: 'garage.field.ParkAreas',
      width: 240,
      render: (row) =>
        row.ParkAreas.length ? (
          <Space size={[0, 4]} wrap>
            {row.ParkAreas.map((z) => (
              <Tag key={z.Id}>{z.Name}</Tag>
            ))}
          </Space>
        ) : (
          notApplicable
        ),
    },
    { key: 'Remark', title: 'garage.field.Remark', ellipsis: true, width: 160 },
    // The tariff dimensions (docs/garage.md, "Tariff dimensions") in the row's detail.
    {
      key: 'PowerBands',
      title: 'garageUi.rule.dimensions',
      secondary: true,
      detailSpan: 'filled',
      render: (row) => <RuleDimensions rule={row} />,
    },
  ],
  form: ruleForm<ChargeRuleItem>(),
};

export default function ChargeRulesPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.chargeRules')} />;
}
