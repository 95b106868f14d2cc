import { sql, type SqlBool, type RawBuilder } from 'kysely';

/**
 * Not the holder row of a visitor pass (docs/access-control.md, "Visitor passes"): the holder screens, their
 * export and the holder pickers leave visitors out; a visitor is on the controllers as a holder row, but the
 * area's holders are its people. `column` is the holder's id column of the query.
 */
export function notVisitorHolder(column: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from "VisitorPass" where "VisitorPass"."CardUserId" = ${sql.ref(column)})`;
}
