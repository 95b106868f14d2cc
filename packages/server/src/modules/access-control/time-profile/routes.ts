import { TimeProfileApi } from '@gatehouse/shared';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { markRulesChanged } from '../access-control-device/rules.ts';
import { weekdayText } from '../common.ts';
import {
  changedProfile,
  newProfile,
  profileChoices,
  profileQuery,
  profileSlotUse,
  toProfileItem,
  withParts,
} from './service.ts';

const api = TimeProfileApi;

/** Time profiles (read: Admin or User; write: Admin). An edit reaches every controller of the area. */
export const timeProfileRoutes = [
  route(api.choices, (_input, ctx) => profileChoices(ctx)),
  route(api.slotUse, (_input, ctx) => profileSlotUse(ctx)),
  ...implementResource(api, {
    table: 'TimeProfile',
    query: profileQuery,
    toItem: toProfileItem,
    enrich: withParts,
    where: { Keyword: match.keyword(['TimeProfile.Name', 'TimeProfile.Remark']) },
    sorts: { Name: 'TimeProfile.Name', Id: 'TimeProfile.Id', UpdatedAt: 'TimeProfile.UpdatedAt' },
    timestamps: true,
    unique: [{ fields: ['Name'], key: 'error.nameTaken' }],
    create: { values: newProfile },
    update: {
      async values(input, ctx, trx) {
        const values = await changedProfile(input, ctx, trx);
        await markRulesChanged(trx, { areaId: ctx.areaId }, ctx.clock.now());
        return values;
      },
    },
    remove: { check: (ctx, row, trx) => assertNoDependents('TimeProfile', trx, row.Id as number, ctx.lang) },
    export: {
      titleKey: 'accessControl.title.timeProfile',
      columns: [
        { key: 'Name', labelKey: 'accessControl.field.ProfileName', width: 20 },
        { key: 'StartDate', labelKey: 'accessControl.field.StartDate', width: 12 },
        { key: 'EndDate', labelKey: 'accessControl.field.EndDate', width: 12 },
        { key: 'Weekdays', labelKey: 'accessControl.field.Weekdays', width: 16, label: weekdayText },
        {
          key: 'Segments',
          labelKey: 'accessControl.field.Segments',
          width: 30,
          label: (v: { Start: string; End: string }[]) => v.map((s) => `${s.Start}-${s.End}`).join(', '),
        },
        { key: 'LinkedProfileName', labelKey: 'accessControl.field.LinkedProfile', width: 20 },
        { key: 'GrantCount', labelKey: 'accessControl.field.AuthorizationCount', kind: 'number' },
      ],
    },
  }),
];
