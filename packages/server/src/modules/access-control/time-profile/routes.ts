import { TimeProfileApi } from '@gatehouse/shared';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { notFound } from '../../../platform/errors.ts';
import { exportColumns } from '../../../platform/export-columns.ts';
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
      async values(input, ctx, trx, existing) {
        // A visitor pass window's profile is the pass's, not an operator's to change (docs/access-control.md).
        if (existing.VisitorWindow !== null) throw notFound();
        const values = await changedProfile(input, ctx, trx);
        await markRulesChanged(trx, { areaId: ctx.areaId }, ctx.clock.now());
        return values;
      },
    },
    remove: {
      async check(ctx, row, trx) {
        if (row.VisitorWindow !== null) throw notFound();
        await assertNoDependents('TimeProfile', trx, row.Id as number, ctx.lang);
      },
    },
    export: {
      titleKey: 'accessControl.title.timeProfile',
      columns: exportColumns('accessControl.field', {
        Name: { header: 'ProfileName', width: 20 },
        StartDate: 12,
        EndDate: 12,
        Weekdays: { width: 16, label: weekdayText },
        Segments: {
          width: 30,
          label: (v: { Start: string; End: string }[]) => v.map((s) => `${s.Start}-${s.End}`).join(', '),
        },
        LinkedProfileName: { header: 'LinkedProfile', width: 20 },
        GrantCount: { header: 'AuthorizationCount', kind: 'number' },
      }),
    },
  }),
];
