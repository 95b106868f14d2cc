import { ADMIN_CODE } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { RESOURCE_TREE } from './resource-tree.ts';

/**
 * What every installation starts with (demo or not): the built-in resource tree, the admin role, one
 * ready-made role per permission code, and the `admin` user. Runs inside the caller's seed transaction.
 * Returns the ready-made roles by code (the demo gives one to each demo user).
 */
export async function seedSystem(
  trx: Kysely<Database>,
  options: { adminHash: string; now: number },
): Promise<Map<string, number>> {
  const stamps = { CreatedAt: options.now, UpdatedAt: options.now };
  const resourceIds = new Map<string, number>();
  let sort = 0;
  const resource = (code: string, name: string, parentId: number | null, type: 'menu' | 'permission') =>
    trx
      .insertInto('Resource')
      .values({ Code: code, Name: name, ParentId: parentId, Type: type, Sort: sort++, BuiltIn: 1 })
      .returning('Id')
      .executeTakeFirstOrThrow();
  for (const group of RESOURCE_TREE) {
    const parent = await resource(group.code, group.name, null, 'menu');
    for (const child of group.children)
      resourceIds.set(child.code, (await resource(child.code, child.name, parent.Id, 'permission')).Id);
  }

  const adminRole = await trx
    .insertInto('Role')
    .values({
      Code: ADMIN_CODE,
      Name: '系统管理员',
      Description: '内置角色：拥有全部权限与全部区域',
      BuiltIn: 1,
      ...stamps,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  // One ready-made role per permission code, so a new install can grant any single code at once.
  const roleIds = new Map<string, number>();
  for (const group of RESOURCE_TREE) {
    for (const child of group.children) {
      const role = await trx
        .insertInto('Role')
        .values({ Code: child.code, Name: child.name, Description: null, BuiltIn: 0, ...stamps })
        .returning('Id')
        .executeTakeFirstOrThrow();
      roleIds.set(child.code, role.Id);
      await trx
        .insertInto('RoleResource')
        .values({ RoleId: role.Id, ResourceId: resourceIds.get(child.code)! })
        .execute();
    }
  }

  const admin = await trx
    .insertInto('AppUser')
    .values({
      UserName: 'admin',
      Name: '系统管理员',
      PasswordHash: options.adminHash,
      Avatar: null,
      Phone: null,
      Email: null,
      DepartmentId: null,
      BuiltIn: 1,
      ...stamps,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  await trx.insertInto('UserRole').values({ UserId: admin.Id, RoleId: adminRole.Id }).execute();
  return roleIds;
}
