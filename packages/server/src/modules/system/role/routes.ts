import { RoleApi } from '@gatehouse/shared';
import type { UserContext } from '../../../platform/context.ts';
import { exportColumns } from '../../../platform/export-columns.ts';
import { match } from '../../../platform/filters.ts';
import { implementResource } from '../../../platform/resource.ts';
import { changesGrants, route } from '../../../platform/route.ts';
import {
  changedRole,
  checkRoleDelete,
  newRole,
  newRoleResources,
  roleQuery,
  roleRow,
  setRoleResources,
  withResourceIds,
} from './service.ts';

export const roleRoutes = [
  ...implementResource<typeof RoleApi, UserContext>(RoleApi, {
    table: 'Role',
    query: roleQuery,
    toItem: roleRow,
    enrich: withResourceIds,
    where: { Keyword: match.keyword(['Role.Code', 'Role.Name']) },
    sorts: { Id: 'Role.Id', Code: 'Role.Code', Name: 'Role.Name', CreatedAt: 'Role.CreatedAt' },
    timestamps: true,
    unique: [{ fields: ['Code'], key: 'error.roleCodeTaken' }],
    create: { values: newRole, after: newRoleResources },
    update: { values: changedRole },
    remove: { check: checkRoleDelete },
    afterWrite: (ctx) => ctx.platform.sessions.invalidate(),
    export: {
      titleKey: 'admin.title.role',
      columns: exportColumns('admin.field', {
        Code: 24,
        Name: 20,
        Description: 36,
        UserCount: 'number',
        CreatedAt: 'instant',
      }),
    },
  }),
  route(RoleApi.setResources, ({ body }, ctx) =>
    changesGrants(ctx, setRoleResources(ctx, body.Id, body.ResourceIds)).then(() => null),
  ),
];
