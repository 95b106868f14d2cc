import { expect } from 'vitest';
import { hashPassword } from '../../src/platform/auth/passwords.ts';
import { login } from './client.ts';
import type { Harness } from './harness.ts';

const PASSWORD = 'Guard#Test2026';
let hash: Promise<string> | undefined;

/** A user holding exactly these codes (through a fresh role) and operating exactly these areas. */
export async function makeUser(
  h: Harness,
  name: string,
  codes: readonly string[],
  areaIds: number[],
): Promise<string> {
  const k = h.db.kysely;
  const now = h.clock.now();
  const user = await k
    .insertInto('AppUser')
    .values({
      UserName: name,
      Name: name,
      PasswordHash: await (hash ??= hashPassword(PASSWORD)),
      Avatar: null,
      Phone: null,
      Email: null,
      DepartmentId: null,
      CreatedAt: now,
      UpdatedAt: now,
    })
    .returning('Id')
    .executeTakeFirstOrThrow();
  const role = await k
    .insertInto('Role')
    .values({ Code: `role-${name}`, Name: name, Description: null, CreatedAt: now, UpdatedAt: now })
    .returning('Id')
    .executeTakeFirstOrThrow();
  await k.insertInto('UserRole').values({ UserId: user.Id, RoleId: role.Id }).execute();
  if (codes.length) {
    const resources = await k
      .selectFrom('Resource')
      .select('Id')
      .where('Code', 'in', [...codes])
      .execute();
    expect(resources).toHaveLength(codes.length);
    await k
      .insertInto('RoleResource')
      .values(resources.map((r) => ({ RoleId: role.Id, ResourceId: r.Id })))
      .execute();
  }
  for (const AreaId of areaIds) await k.insertInto('UserArea').values({ UserId: user.Id, AreaId }).execute();
  h.platform.sessions.invalidate();
  return login(h.app, name, PASSWORD);
}
