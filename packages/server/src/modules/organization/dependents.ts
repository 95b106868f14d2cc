import { registerDependent } from '../../platform/dependents.ts';

/** Organisation data keeps its area from being deleted until it is removed. */
for (const [table, labelKey] of [
  ['Department', 'admin.entity.Department'],
  ['PeopleGroup', 'admin.entity.PeopleGroup'],
  ['PeopleType', 'admin.entity.PeopleType'],
] as const) {
  registerDependent('AreaInfo', {
    labelKey,
    async count(db, areaId) {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('AreaId', '=', areaId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  });
}
