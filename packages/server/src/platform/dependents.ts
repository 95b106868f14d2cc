import { translate, type Lang } from '@gatehouse/shared';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from './errors.ts';

/**
 * Rows that other modules keep pointing at a record (an area's devices, a department's members, a group's
 * card holders). A module registers a counter for each entity it references; deleting the record is
 * refused with a 409 that names what still depends on it and how many. Modules register from their face's
 * `register()` (called by app.ts, in module order), so the owner of the entity needs no knowledge of who
 * uses it.
 */
export interface Dependent {
  /** Catalogue key of what depends (e.g. 'admin.entity.Department'). */
  labelKey: string;
  count(db: Kysely<Database>, id: number): Promise<number>;
}

const registry = new Map<string, Dependent[]>();

/** The usual counter: rows of `table` whose `column` holds the record's id. */
export function rowsWhere<T extends keyof Database & string>(
  table: T,
  column: keyof Database[T] & string,
): Dependent['count'] {
  return async (db, id) => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- table and column are checked by the signature
    const row = await (db as Kysely<any>)
      .selectFrom(table as string)
      .select(sql<number>`count(*)`.as('n'))
      .where(column as string, '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
}

export function registerDependent(entity: string, dependent: Dependent): void {
  const list = registry.get(entity) ?? [];
  if (!list.some((d) => d.labelKey === dependent.labelKey)) list.push(dependent);
  registry.set(entity, list);
}

/** What still depends on a record, with counts (empty when it may be deleted). */
export async function findDependents(
  entity: string,
  db: Kysely<Database>,
  id: number,
): Promise<{ labelKey: string; count: number }[]> {
  const found: { labelKey: string; count: number }[] = [];
  for (const d of registry.get(entity) ?? []) {
    const count = await d.count(db, id);
    if (count > 0) found.push({ labelKey: d.labelKey, count });
  }
  return found;
}

/** Throws 409 `error.inUse` ("still used by: departments 3, people groups 2") when anything depends on it. */
export async function assertNoDependents(
  entity: string,
  db: Kysely<Database>,
  id: number,
  lang: Lang,
): Promise<void> {
  const found = await findDependents(entity, db, id);
  if (found.length === 0) return;
  const items = found
    .map((d) => `${translate(lang, d.labelKey)} ${d.count}`)
    .join(translate(lang, 'common.listSeparator'));
  throw new AppError(409, 'error.inUse', { items });
}
