import { registerDependent } from '../../platform/dependents.ts';
import { countWhere } from './common.ts';

/** Garage rows keep their area from being deleted until they are removed. */
for (const table of [
  'ParkArea',
  'ChargeRule',
  'ChargeHost',
  'ChargeEquipment',
  'ChargeRecord',
  'ChargeOrder',
  'ParkOrder',
  'ForcedOutageRecord',
  'Vehicle',
  'MonthlyPass',
] as const) {
  registerDependent('AreaInfo', {
    labelKey: `garage.entity.${table}`,
    count: (db, areaId) => countWhere(db, table, 'AreaId', areaId),
  });
}

/** A zone with hosts or parking orders stays (its rule links go with it). */
registerDependent('ParkArea', {
  labelKey: 'garage.entity.ChargeHost',
  count: (db, id) => countWhere(db, 'ChargeHost', 'ParkAreaId', id),
});
registerDependent('ParkArea', {
  labelKey: 'garage.entity.ParkOrder',
  count: (db, id) => countWhere(db, 'ParkOrder', 'ParkAreaId', id),
});

/** A rule that priced orders or sold passes stays (disable it instead); its zone links go with it. */
registerDependent('ChargeRule', {
  labelKey: 'garage.entity.ChargeOrder',
  count: (db, id) => countWhere(db, 'ChargeOrder', 'ChargeRuleId', id),
});
registerDependent('ChargeRule', {
  labelKey: 'garage.entity.ParkOrder',
  count: (db, id) => countWhere(db, 'ParkOrder', 'ChargeRuleId', id),
});
registerDependent('ChargeRule', {
  labelKey: 'garage.entity.MonthlyPass',
  count: (db, id) => countWhere(db, 'MonthlyPass', 'ChargeRuleId', id),
});

/** A socket with history stays; a host goes with its sockets only when none of them has any. */
registerDependent('ChargeEquipment', {
  labelKey: 'garage.entity.ChargeRecord',
  count: (db, id) => countWhere(db, 'ChargeRecord', 'ChargeEquipmentId', id),
});
registerDependent('ChargeEquipment', {
  labelKey: 'garage.entity.ForcedOutageRecord',
  count: (db, id) => countWhere(db, 'ForcedOutageRecord', 'ChargeEquipmentId', id),
});
for (const [table, labelKey] of [
  ['ChargeRecord', 'garage.entity.ChargeRecord'],
  ['ForcedOutageRecord', 'garage.entity.ForcedOutageRecord'],
] as const) {
  registerDependent('ChargeHost', {
    labelKey,
    async count(db, hostId) {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .where(
          'ChargeEquipmentId',
          'in',
          db.selectFrom('ChargeEquipment').select('Id').where('ChargeHostId', '=', hostId),
        )
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  });
}

/** A vehicle with passes stays (parking orders keep their plate and lose the link). */
registerDependent('Vehicle', {
  labelKey: 'garage.entity.MonthlyPass',
  count: (db, id) => countWhere(db, 'MonthlyPass', 'VehicleId', id),
});
