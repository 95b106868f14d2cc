import { ResourceApi } from '@gatehouse/shared';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import {
  changedResource,
  checkResourceDelete,
  newResource,
  resourceColumns,
  resourceRow,
  resourceTree,
} from './service.ts';

export const resourceRoutes = [
  route(ResourceApi.tree, (_input, ctx) => resourceTree(ctx)),
  ...implementResource(ResourceApi, {
    table: 'Resource',
    query: resourceColumns,
    toItem: resourceRow,
    where: {
      Keyword: match.keyword(['Resource.Code', 'Resource.Name']),
      ParentId: match.equals('Resource.ParentId'),
    },
    sorts: { Sort: 'Resource.Sort', Code: 'Resource.Code', Name: 'Resource.Name' },
    unique: [{ fields: ['Code'], key: 'error.resourceCodeTaken' }],
    create: { values: newResource },
    update: { values: changedResource },
    remove: { check: checkResourceDelete },
    afterWrite: (ctx) => ctx.platform.sessions.invalidate(),
  }),
];
