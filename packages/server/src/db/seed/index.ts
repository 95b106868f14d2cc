import { randomBytes } from 'node:crypto';
import type { Db } from '../database.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import { ADMIN_CODE } from '../../platform/principal.ts';
import { DEMO_AREAS, DEMO_PASSWORD, DEMO_USERS, RESOURCE_TREE } from './catalog.ts';
import { demoSeeders } from './demo.ts';

export interface SeedOptions {
  mode: 'demo' | 'none';
  adminPassword: string | undefined;
  now: number;
  /** Bulk demo volume, 1 = full (see DemoContext.scale). */
  scale?: number;
}

export interface SeedResult {
  seeded: boolean;
  /** Present when the admin password was generated: shown once, never stored in clear. */
  generatedAdminPassword?: string;
  demoUsers: string[];
}

/**
 * Fills an empty database (no users): resources, roles, the admin, and with mode demo the demo data, all in
 * one transaction, so a database is either empty or completely seeded.
 */
export async function seedIfEmpty(db: Db, options: SeedOptions): Promise<SeedResult> {
  const k = db.kysely;
  const existing = await k.selectFrom('AppUser').select('Id').limit(1).executeTakeFirst();
  if (existing) return { seeded: false, demoUsers: [] };

  const generated = options.adminPassword ? undefined : randomBytes(12).toString('base64url');
  const adminHash = await hashPassword(options.adminPassword ?? generated!);
  const demoHash = options.mode === 'demo' ? await hashPassword(DEMO_PASSWORD) : '';
  const now = options.now;
  const stamps = { CreatedAt: now, UpdatedAt: now };

  const areaIds: number[] = [];
  await k.transaction().execute(async (trx) => {
    const resourceIds = new Map<string, number>();
    let sort = 0;
    for (const group of RESOURCE_TREE) {
      const parent = await trx
        .insertInto('Resource')
        .values({
          Code: group.code,
          Name: group.name,
          ParentId: null,
          Type: 'menu',
          Sort: sort++,
          BuiltIn: 1,
        })
        .returning('Id')
        .executeTakeFirstOrThrow();
      for (const child of group.children) {
        const row = await trx
          .insertInto('Resource')
          .values({
            Code: child.code,
            Name: child.name,
            ParentId: parent.Id,
            Type: 'permission',
            Sort: sort++,
            BuiltIn: 1,
          })
          .returning('Id')
          .executeTakeFirstOrThrow();
        resourceIds.set(child.code, row.Id);
      }
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
        PasswordHash: adminHash,
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

    if (options.mode !== 'demo') return;
    for (const area of DEMO_AREAS) {
      const row = await trx
        .insertInto('AreaInfo')
        .values({ Name: area.Name, Custom: JSON.stringify(area.Custom), ...stamps })
        .returning('Id')
        .executeTakeFirstOrThrow();
      areaIds.push(row.Id);
    }
    for (const demo of DEMO_USERS) {
      const user = await trx
        .insertInto('AppUser')
        .values({
          UserName: demo.userName,
          Name: demo.name,
          PasswordHash: demoHash,
          Avatar: null,
          Phone: null,
          Email: null,
          DepartmentId: null,
          ...stamps,
        })
        .returning('Id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('UserRole')
        .values({ UserId: user.Id, RoleId: roleIds.get(demo.code)! })
        .execute();
      const areas = demo.areas === 'both' ? areaIds : demo.areas === 'first' ? areaIds.slice(0, 1) : [];
      for (const AreaId of areas)
        await trx.insertInto('UserArea').values({ UserId: user.Id, AreaId }).execute();
    }

    // The modules' demo data in the same transaction: a start killed half-way leaves an empty database
    // (the next start seeds it again), never users without the data every later start would think is
    // there. Seeders write through `db.kysely` (here the transaction) and, on SQLite, the raw handle on
    // the same connection, so both are inside it.
    for (const seeder of demoSeeders) {
      await seeder(
        { ...db, kysely: trx },
        {
          areaIds,
          now,
          passwordHash: demoHash,
          scale: options.scale ?? 1,
          ...(db.sqlite ? { sqlite: db.sqlite } : {}),
        },
      );
    }
  });

  return {
    seeded: true,
    ...(generated ? { generatedAdminPassword: generated } : {}),
    demoUsers: options.mode === 'demo' ? DEMO_USERS.map((u) => u.userName) : [],
  };
}
