import {
  ChargeRuleApi,
  chargeType,
  disabledFlag,
  temporaryChargeType,
  translate,
  type ChargeRuleItem,
} from '@gatehouse/shared';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { exportColumns } from '../../../platform/export-columns.ts';
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
    columns: exportColumns('garage.field', {
      Name: { header: 'RuleName', width: 24 },
      ChargeType: { enum: chargeType, width: 20 },
      TemporaryChargeType: { enum: temporaryChargeType },
      UnitPriceCents: { header: 'UnitPrice', kind: 'money' },
      PriceUnitKey: { header: 'PriceUnit', label: (v: string, lang) => translate(lang, v) },
      FreeMinutes: 'number',
      CapCents: { header: 'Cap', kind: 'money' },
      ParkAreas: {
        width: 40,
        label: (zones: ChargeRuleItem['ParkAreas']) => zones.map((z) => z.Name).join(', '),
      },
      Disabled: { header: 'Status', enum: disabledFlag },
      Remark: 30,
    }),
  },
});
