import { RoleApi } from '@gatehouse/shared';
import type { UserContext } from '../../../platform/context.ts';
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
      columns: [
        { key: 'Code', labelKey: 'admin.field.Code', width: 24 },
        { key: 'Name', labelKey: 'admin.field.Name', width: 20 },
        { key: 'Description', labelKey: 'admin.field.Description', width: 36 },
        { key: 'UserCount', labelKey: 'admin.field.UserCount', kind: 'number' },
        { key: 'CreatedAt', labelKey: 'admin.field.CreatedAt', kind: 'instant' },
      ],
    },
  }),
  route(RoleApi.setResources, ({ body }, ctx) =>
    changesGrants(ctx, setRoleResources(ctx, body.Id, body.ResourceIds)).then(() => null),
  ),
];
