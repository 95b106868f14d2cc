/**
 * The database's tables, as one Kysely type. The ground floor declares it open and knows none of them: each
 * layer above declares its own tables next to its code and joins them here by declaration merging
 * (`declare module '…/db/schema.ts' { interface Database extends TheirTables {} }`): platform/tables.ts,
 * modules/<module>/tables.ts, platform/cluster/tables.ts. So db/ imports nothing from above, and every
 * `Kysely<Database>` sees every table of the house.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Database {}
