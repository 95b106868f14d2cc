import { disabledFlag, type AppUserApi, type AppUserItem } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AreaContext } from '../../../platform/context.ts';
import type { ExportColumn } from '../../../platform/exports/registry.ts';
import { match } from '../../../platform/filters.ts';
import { rowMapper, type ResourceImpl } from '../../../platform/resource.ts';
import { enrichUsers } from './service.ts';
import { enumColumn } from '../../../platform/exports/columns.ts';

/** A user row as an item; its roles and areas are filled in by `enrichUsers`. */
const userRow = rowMapper<AppUserItem>({ flags: ['Disabled', 'BuiltIn'] });

/** The area's users: list, detail and export (writes are the module's own operations, in service.ts). */
export const usersList: ResourceImpl<typeof AppUserApi, AreaContext> = {
  table: 'AppUser',
  // The area comes through UserArea (a user may operate several areas).
  areaColumn: false,
  query: (db: Kysely<Database>, ctx) =>
    db
      .selectFrom('AppUser')
      .innerJoin('UserArea', (join) =>
        join.onRef('UserArea.UserId', '=', 'AppUser.Id').on('UserArea.AreaId', '=', ctx.areaId),
      )
      .leftJoin('Department', 'Department.Id', 'AppUser.DepartmentId')
      .select([
        'AppUser.Id',
        'AppUser.UserName',
        'AppUser.Name',
        'AppUser.Avatar',
        'AppUser.Phone',
        'AppUser.Email',
        'AppUser.DepartmentId',
        'Department.Name as DepartmentName',
        'AppUser.Disabled',
        'AppUser.BuiltIn',
        'AppUser.CreatedAt',
        'AppUser.UpdatedAt',
      ]),
  toItem: (row) => Object.assign(userRow(row), { Roles: [], Areas: [] }),
  // The area's user ids in order come straight from the UserArea (AreaId, UserId) index.
  idColumn: 'UserArea.UserId',
  enrich: enrichUsers as ResourceImpl<typeof AppUserApi, AreaContext>['enrich'],
  where: {
    Keyword: match.keyword(['AppUser.UserName', 'AppUser.Name', 'AppUser.Phone']),
    Disabled: match.flag('AppUser.Disabled'),
    DepartmentId: match.equals('AppUser.DepartmentId'),
    RoleId: (eb, roleId) =>
      eb(
        'AppUser.Id',
        'in',
        eb.selectFrom('UserRole').select('UserRole.UserId').where('UserRole.RoleId', '=', roleId),
      ),
  },
  sorts: {
    Id: 'UserArea.UserId',
    UserName: 'AppUser.UserName',
    Name: 'AppUser.Name',
    CreatedAt: 'AppUser.CreatedAt',
  },
  export: {
    titleKey: 'admin.title.appUser',
    columns: [
      { key: 'UserName', labelKey: 'admin.field.UserName' },
      { key: 'Name', labelKey: 'admin.field.Name' },
      { key: 'Phone', labelKey: 'admin.field.Phone' },
      { key: 'Email', labelKey: 'admin.field.Email', width: 26 },
      { key: 'DepartmentName', labelKey: 'admin.field.Department', width: 20 },
      {
        key: 'Roles',
        labelKey: 'admin.field.Roles',
        width: 30,
        label: (roles: AppUserItem['Roles']) => roles.map((r) => r.Name).join(', '),
      },
      enumColumn('Disabled', 'admin.field.Status', disabledFlag),
      { key: 'CreatedAt', labelKey: 'admin.field.CreatedAt', kind: 'instant' },
    ] satisfies ExportColumn<AppUserItem>[],
  },
};
