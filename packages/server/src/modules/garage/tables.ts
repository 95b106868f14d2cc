/** Tables of the garage module (joined into the Database interface in db/schema.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as the module lands
export interface GarageTables {}
