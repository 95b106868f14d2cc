import type { Db } from '../../db/database.ts';
import type { DemoContext } from '../../db/seed/demo.ts';

/** Demo data of the garage module. */
export async function seedGarageDemo(_db: Db, _ctx: DemoContext): Promise<void> {}
