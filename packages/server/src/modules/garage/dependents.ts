import { registerDependent, rowsWhere } from '../../platform/dependents.ts';
import { GARAGE_TABLES } from './tables.ts';

/** What garage rows keep from being deleted: their area, and the zone, rule, socket, host or vehicle they point at. */
export function registerGarageDependents(): void {
  // Garage rows keep their area from being deleted until they are removed.
  for (const table of GARAGE_TABLES) {
    registerDependent('AreaInfo', {
      labelKey: `garage.entity.${table}`,
      count: rowsWhere(table, 'AreaId'),
    });
  }

  /** A card holder whose card a vehicle carries stays (the vehicle points at it). */
  registerDependent('CardUser', {
    labelKey: 'garage.entity.Vehicle',
    count: rowsWhere('Vehicle', 'CardHolderId'),
  });

  /** A zone with hosts or parking orders stays (its rule links go with it). */
  registerDependent('ParkArea', {
    labelKey: 'garage.entity.ChargeHost',
    count: rowsWhere('ChargeHost', 'ParkAreaId'),
  });
  registerDependent('ParkArea', {
    labelKey: 'garage.entity.ParkOrder',
    count: rowsWhere('ParkOrder', 'ParkAreaId'),
  });

  /** A rule that priced orders or sold passes stays (disable it instead); its zone links go with it. */
  registerDependent('ChargeRule', {
    labelKey: 'garage.entity.ChargeOrder',
    count: rowsWhere('ChargeOrder', 'ChargeRuleId'),
  });
  registerDependent('ChargeRule', {
    labelKey: 'garage.entity.ParkOrder',
    count: rowsWhere('ParkOrder', 'ChargeRuleId'),
  });
  registerDependent('ChargeRule', {
    labelKey: 'garage.entity.MonthlyPass',
    count: rowsWhere('MonthlyPass', 'ChargeRuleId'),
  });

  /** A socket with history stays; a host goes with its sockets only when none of them has any. */
  registerDependent('ChargeEquipment', {
    labelKey: 'garage.entity.ChargeRecord',
    count: rowsWhere('ChargeRecord', 'ChargeEquipmentId'),
  });
  registerDependent('ChargeEquipment', {
    labelKey: 'garage.entity.ForcedOutageRecord',
    count: rowsWhere('ForcedOutageRecord', 'ChargeEquipmentId'),
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
    count: rowsWhere('MonthlyPass', 'VehicleId'),
  });
}
