import { MusterApi, MusterPersonApi } from '@gatehouse/shared';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import {
  musterQuery,
  musterWhere,
  personExportColumns,
  personQuery,
  personSorts,
  personWhere,
  toMusterItem,
  toPersonItem,
} from './items.ts';
import { endMuster, markSafe, startMuster } from './service.ts';

/**
 * Roll calls and their people (AccessControl/Admin or User of the area, as visitor passes; docs/access-control.md,
 * "Occupancy and muster"): lists, details and the result's export from the resource helper; starting, marking
 * safe and ending are services of their own.
 */
export const musterRoutes = [
  ...implementResource(MusterApi, {
    table: 'Muster',
    query: musterQuery,
    toItem: toMusterItem,
    where: musterWhere,
    sorts: { StartedAt: 'Muster.StartedAt', Id: 'Muster.Id' },
    defaultOrder: 'desc',
  }),
  route(MusterApi.start, ({ body }, ctx) => startMuster(ctx, body)),
  route(MusterApi.markSafe, ({ body }, ctx) => markSafe(ctx, body)),
  route(MusterApi.end, ({ body }, ctx) => endMuster(ctx, body)),
  ...implementResource(MusterPersonApi, {
    table: 'MusterPerson',
    query: personQuery,
    toItem: toPersonItem,
    where: personWhere,
    sorts: personSorts,
    defaultOrder: 'asc',
    export: { titleKey: 'accessControl.title.musterPerson', columns: personExportColumns },
  }),
];
