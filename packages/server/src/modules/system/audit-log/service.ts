import { recordedObjectName, translate, type AuditLogItem, type AuditTr, type Lang } from '@gatehouse/shared';
import { sql } from 'kysely';
import type { ServiceContext } from '../../../platform/context.ts';

/**
 * The name an operation-log entry's object has now, for entries whose snapshots name nothing (a clock check
 * records only the drift, a settlement only the amount): the operator reads "Charging host 东区 3 号充电主机",
 * not "#8" (issue 21, item 8). Entries keep the name they recorded; an object deleted since has none.
 */
const NAMES: Record<string, { table: string; name: string }> = {
  AppUser: { table: 'AppUser', name: '"UserName"' },
  AreaInfo: { table: 'AreaInfo', name: '"Name"' },
  Role: { table: 'Role', name: '"Name"' },
  OperatorStaff: { table: 'OperatorStaff', name: '"Name"' },
  Department: { table: 'Department', name: '"Name"' },
  PeopleGroup: { table: 'PeopleGroup', name: '"Name"' },
  AccessControlDevice: { table: 'AccessControlDevice', name: '"Name"' },
  AccessControlChannel: { table: 'AccessControlChannel', name: '"Name"' },
  CardUser: { table: 'CardUser', name: '"Name"' },
  Card: { table: 'Card', name: '"CardNumber"' },
  ParkArea: { table: 'ParkArea', name: '"Name"' },
  ChargeRule: { table: 'ChargeRule', name: '"Name"' },
  ChargeHost: { table: 'ChargeHost', name: '"Name"' },
  ChargeOrder: { table: 'ChargeOrder', name: '"OrderNo"' },
  ParkOrder: { table: 'ParkOrder', name: '"OrderNo"' },
  Vehicle: { table: 'Vehicle', name: '"Plate"' },
};

/** The operation log's words in a language (for names made of several fields, and for the export). */
export const auditTr =
  (lang: Lang): AuditTr =>
  (key, params) =>
    translate(lang, key, params);

const recordedName = (item: AuditLogItem, tr: AuditTr) => recordedObjectName(item, tr) !== null;

/** Each page's entries with the current name of objects their snapshots do not name (EntityName). */
export async function withEntityNames(ctx: ServiceContext, items: AuditLogItem[]): Promise<AuditLogItem[]> {
  const tr = auditTr(ctx.lang);
  const wanted = new Map<string, Set<number>>();
  for (const item of items) {
    const id = Number(item.EntityId);
    if (!NAMES[item.Entity] || !Number.isInteger(id) || id <= 0 || recordedName(item, tr)) continue;
    wanted.set(item.Entity, (wanted.get(item.Entity) ?? new Set()).add(id));
  }
  const names = new Map<string, string>();
  for (const [entity, ids] of wanted) {
    const { table, name } = NAMES[entity]!;
    // Sockets are named by their host and port; everything else by its own name column.
    const rows = await sql<{
      Id: number;
      N: string | null;
    }>`select "Id", ${sql.raw(name)} as "N" from ${sql.table(
      table,
    )} where "Id" in (${sql.join([...ids])})`.execute(ctx.db.kysely);
    for (const row of rows.rows) if (row.N) names.set(`${entity}:${row.Id}`, String(row.N));
  }
  const sockets = items
    .filter((i) => i.Entity === 'ChargeEquipment' && !recordedName(i, tr))
    .map((i) => Number(i.EntityId))
    .filter((id) => Number.isInteger(id) && id > 0);
  if (sockets.length > 0) {
    const rows = await ctx.db.kysely
      .selectFrom('ChargeEquipment')
      .innerJoin('ChargeHost', 'ChargeHost.Id', 'ChargeEquipment.ChargeHostId')
      .select(['ChargeEquipment.Id', 'ChargeHost.Name', 'ChargeEquipment.PortNumber'])
      .where('ChargeEquipment.Id', 'in', sockets)
      .execute();
    for (const row of rows)
      names.set(
        `ChargeEquipment:${row.Id}`,
        tr('audit.name.socket', { host: row.Name, port: row.PortNumber }),
      );
  }
  return items.map((item) => ({ ...item, EntityName: names.get(`${item.Entity}:${item.EntityId}`) ?? null }));
}
