import type { Db } from '../../db/database.ts';
import type { DemoContext } from '../../db/seed/demo.ts';

/** Demo data of the access-control module. */
export async function seedAccessControlDemo(_db: Db, _ctx: DemoContext): Promise<void> {}
