import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { seedAccessControlDemo } from './access-control/index.ts';
import { seedGarageDemo } from './garage.ts';
import { DEMO_AREAS, DEMO_USERS } from './catalog.ts';
import type { DemoSeeder } from './context.ts';
import { seedOrganizationDemo } from './organization.ts';
import { seedSystemDemo } from './system.ts';

/**
 * Module demo data, in dependency order (organisation before the card holders that belong to departments).
 * Each seeder runs once, on an empty database, after the demo areas and users.
 */
export const demoSeeders: DemoSeeder[] = [
  seedOrganizationDemo,
  seedSystemDemo,
  seedAccessControlDemo,
  seedGarageDemo,
];

export interface DemoSeedOptions {
  /** The ready-made role of each permission code (the system seed's). */
  roleIds: Map<string, number>;
  now: number;
  /** Argon2 hash of the demo password. */
  passwordHash: string;
  scale: number;
  runningSessions: boolean;
  /** First UDP port of the demo's simulated door controllers (DemoContext.wgPortBase). */
  wgPortBase: number;
}

/**
 * The demo: its two areas, one operator per permission code, then every module's demo data, inside the
 * caller's seed transaction (`trx`). Seeders write through `db.kysely` (the transaction) and, on SQLite, the
 * raw handle on the same connection, so both are inside it: a start killed half-way leaves an empty database.
 * Returns the demo users' names (shown at first start).
 */
export async function seedDemo(db: Db, trx: Kysely<Database>, options: DemoSeedOptions): Promise<string[]> {
  const stamps = { CreatedAt: options.now, UpdatedAt: options.now };
  const areaIds: number[] = [];
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
        PasswordHash: options.passwordHash,
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
      .values({ UserId: user.Id, RoleId: options.roleIds.get(demo.code)! })
      .execute();
    const areas = demo.areas === 'both' ? areaIds : demo.areas === 'first' ? areaIds.slice(0, 1) : [];
    for (const AreaId of areas)
      await trx.insertInto('UserArea').values({ UserId: user.Id, AreaId }).execute();
  }
  for (const seeder of demoSeeders) {
    await seeder(
      { ...db, kysely: trx },
      {
        areaIds,
        now: options.now,
        passwordHash: options.passwordHash,
        scale: options.scale,
        runningSessions: options.runningSessions,
        wgPortBase: options.wgPortBase,
        ...(db.sqlite ? { sqlite: db.sqlite } : {}),
      },
    );
  }
  return DEMO_USERS.map((u) => u.userName);
}
