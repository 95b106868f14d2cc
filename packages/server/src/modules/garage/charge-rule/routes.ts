import {
  ChargeRuleApi,
  chargeType,
  disabledFlag,
  enumLabel,
  temporaryChargeType,
  translate,
  type ChargeRuleItem,
} from '@gatehouse/shared';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import {
  changedRule,
  chargeRuleItem,
  chargeRuleQuery,
  checkRuleEnabled,
  linkNewRule,
  newRule,
  ruleOfZoneCondition,
  withZones,
} from './service.ts';

/** Charge rules (spec screen chargeRule): every charge type, with the zones that use each. */
export const chargeRuleRoutes = implementResource(ChargeRuleApi, {
  table: 'ChargeRule',
  query: chargeRuleQuery,
  toItem: chargeRuleItem,
  enrich: withZones,
  where: {
    Name: match.like('ChargeRule.Name'),
    ChargeType: match.equals('ChargeRule.ChargeType'),
    TemporaryChargeType: match.equals('ChargeRule.TemporaryChargeType'),
    Disabled: match.flag('ChargeRule.Disabled'),
    ParkAreaId: ruleOfZoneCondition,
  },
  sorts: {
    ChargeType: 'ChargeRule.ChargeType',
    Name: 'ChargeRule.Name',
    UnitPriceCents: 'ChargeRule.UnitPriceCents',
    CreatedAt: 'ChargeRule.CreatedAt',
  },
  timestamps: true,
  unique: [{ fields: ['Name'], key: 'garage.error.ruleNameTaken' }],
  create: { values: newRule, after: linkNewRule },
  update: { values: changedRule },
  remove: { check: (ctx, row, trx) => assertNoDependents('ChargeRule', trx, row.Id as number, ctx.lang) },
  status: { check: checkRuleEnabled },
  export: {
    titleKey: 'garage.title.chargeRule',
    columns: [
      { key: 'Name', labelKey: 'garage.field.RuleName', width: 24 },
      {
        key: 'ChargeType',
        labelKey: 'garage.field.ChargeType',
        width: 20,
        label: (v, lang) => enumLabel(lang, chargeType, v),
      },
      {
        key: 'TemporaryChargeType',
        labelKey: 'garage.field.TemporaryChargeType',
        label: (v, lang) => enumLabel(lang, temporaryChargeType, v),
      },
      { key: 'UnitPriceCents', labelKey: 'garage.field.UnitPrice', kind: 'money' },
      {
        key: 'PriceUnitKey',
        labelKey: 'garage.field.PriceUnit',
        label: (v: string, lang) => translate(lang, v),
      },
      { key: 'FreeMinutes', labelKey: 'garage.field.FreeMinutes', kind: 'number' },
      { key: 'CapCents', labelKey: 'garage.field.Cap', kind: 'money' },
      {
        key: 'ParkAreas',
        labelKey: 'garage.field.ParkAreas',
        width: 40,
        label: (zones: ChargeRuleItem['ParkAreas']) => zones.map((z) => z.Name).join(', '),
      },
      {
        key: 'Disabled',
        labelKey: 'garage.field.Status',
        label: (v, lang) => enumLabel(lang, disabledFlag, v),
      },
      { key: 'Remark', labelKey: 'garage.field.Remark', width: 30 },
    ],
  },
});
