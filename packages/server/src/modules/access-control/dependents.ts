import { sql } from 'kysely';
import { registerDependent, rowsWhere, type Dependent } from '../../platform/dependents.ts';
import { registerDepartmentMembers } from '../organization/index.ts';

/**
 * What the access-control data keeps from being deleted: an area holding its devices, cards, holders,
 * swipe records or fault reports; a department, people group or people type with card holders; a pool
 * device with history; a card holder with cards, authorisations or swipes.
 */
export function registerAccessControlDependents(): void {
  registerAreaAndDeviceDependents();
  registerHolderDependents();
  registerGroupDependents();
}

/** Swipe records, counted from the per-day counts rather than the millions of records. */
const swipeCount = (column: 'AreaId' | 'DeviceId') =>
  async function count(db: Parameters<Dependent['count']>[0], rowId: number) {
    const row = await db
      .selectFrom('DoorOpeningRecordDay')
      .select(sql<number>`coalesce(sum("Count"), 0)`.as('n'))
      .where(column, '=', rowId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };

/** An area holding devices, cards, holders, swipes or fault reports; a pool device with history. */
function registerAreaAndDeviceDependents(): void {
  for (const [table, labelKey] of [
    ['AccessControlDevice', 'accessControl.entity.Device'],
    ['Card', 'accessControl.entity.Card'],
    ['CardUser', 'accessControl.entity.CardUser'],
    ['FailureDeclarationRecord', 'accessControl.entity.FailureDeclarationRecord'],
  ] as const) {
    registerDependent('AreaInfo', { labelKey, count: rowsWhere(table, 'AreaId') });
  }

  registerDependent('AreaInfo', {
    labelKey: 'accessControl.entity.DoorOpeningRecord',
    count: swipeCount('AreaId'),
  });
  registerDependent('AccessControlDevice', {
    labelKey: 'accessControl.entity.DoorOpeningRecord',
    count: swipeCount('DeviceId'),
  });
  registerDependent('AccessControlDevice', {
    labelKey: 'accessControl.entity.FailureDeclarationRecord',
    count: rowsWhere('FailureDeclarationRecord', 'DeviceId'),
  });
}

function registerHolderDependents(): void {
  /**
   * A card holder may be deleted while it holds no card, no authorisation and no swipe record; its own
   * change and renewal records go with it (the operation log keeps the deleted row).
   */
  registerDependent('CardUser', {
    labelKey: 'accessControl.entity.Card',
    count: rowsWhere('Card', 'CardUserId'),
  });
  registerDependent('CardUser', {
    labelKey: 'accessControl.entity.Authorization',
    count: rowsWhere('CardUserLinkChannel', 'CardUserId'),
  });
  registerDependent('CardUser', {
    labelKey: 'accessControl.entity.DoorOpeningRecord',
    // Swipes are indexed by area first: look the holder's area up, so a million records are not scanned.
    async count(db, holderId) {
      const holder = await db
        .selectFrom('CardUser')
        .select('AreaId')
        .where('Id', '=', holderId)
        .executeTakeFirst();
      if (!holder) return 0;
      const row = await db
        .selectFrom('DoorOpeningRecord')
        .select(sql<number>`count(*)`.as('n'))
        .where('AreaId', '=', holder.AreaId)
        .where('CardUserId', '=', holderId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  });
}

/** Departments, people groups and people types with card holders (and a department's member counts). */
function registerGroupDependents(): void {
  registerDependent('PeopleGroup', {
    labelKey: 'accessControl.entity.CardUser',
    count: rowsWhere('CardUser', 'PeopleGroupId'),
  });
  registerDependent('PeopleType', {
    labelKey: 'accessControl.entity.CardUser',
    count: rowsWhere('CardUser', 'PeopleTypeId'),
  });

  registerDepartmentMembers({
    labelKey: 'accessControl.entity.CardUser',
    async countByDepartment(db, areaId) {
      const rows = await db
        .selectFrom('CardUser')
        .select((eb) => ['DepartmentId', eb.fn.countAll().as('n')])
        .where('AreaId', '=', areaId)
        .where('DepartmentId', 'is not', null)
        .groupBy('DepartmentId')
        .execute();
      return new Map(rows.map((r) => [Number(r.DepartmentId), Number(r.n)]));
    },
    async count(db, departmentId) {
      const row = await db
        .selectFrom('CardUser')
        .select(sql<number>`count(*)`.as('n'))
        .where('DepartmentId', '=', departmentId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  });
}
