import { sql, type Kysely } from 'kysely';
import type { PortableMigration } from '../../db/migration.ts';

/**
 * Charging hosts as OCPP 1.6J charge points (docs/chargers.md). On ChargeHost: the hashed Basic-auth password
 * (security profile 1; argon2id, never the password), the status connector 0 last reported and the identity
 * the BootNotification gave. On ChargeEquipment: the OCPP report behind the socket's State, kept for
 * diagnosis and because the mapping reads it again when metering refines it (float charge). On ChargeRecord:
 * the energy register at the start of a metered session.
 * One column per statement: SQLite alters one column at a time.
 */
export const ocppMigration: PortableMigration = {
  async up(db: Kysely<unknown>) {
    for (const column of ['OcppPasswordHash', 'OcppStatus', 'OcppBootInfo']) {
      await db.schema.alterTable('ChargeHost').addColumn(column, 'text').execute();
    }
    for (const column of ['OcppStatus', 'OcppErrorCode', 'OcppVendorErrorCode']) {
      await db.schema.alterTable('ChargeEquipment').addColumn(column, 'text').execute();
    }
    // The charger's energy register when the session started: a session's energy is register − start.
    await db.schema.alterTable('ChargeRecord').addColumn('MeterStartWh', 'bigint').execute();
  },
};

/**
 * Issue 13's second half (docs/chargers.md): liveness, honest power-off and safety rules.
 * - ChargeHost: whether its charge point is connected now (a never-connected OCPP host is offline too) and
 *   since when it is not (the grace period before its sessions are closed counts from there).
 * - ChargeRecord: the stop Gatehouse asked the device for (its chargeStopReason; the device's
 *   StopTransaction then ends the session with it) and when; EndProvisional = 1 on a session Gatehouse ended
 *   itself without the device's stop (power failure after the grace period): the later StopTransaction
 *   corrects it once.
 * - ForcedOutageRecord: why a power-off was not sent or failed (a reason code, translated when read).
 * - ChargeRule: safety limits, each optional: maximum session duration, maximum power, and "stop when full"
 *   (power below a threshold for a number of minutes).
 */
export const ocppSafetyMigration: PortableMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('ChargeHost')
      .addColumn('OcppOnline', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('ChargeHost').addColumn('OcppOfflineAt', 'bigint').execute();
    await db.schema.alterTable('ChargeRecord').addColumn('StopRequest', 'integer').execute();
    await db.schema.alterTable('ChargeRecord').addColumn('StopRequestedAt', 'bigint').execute();
    await db.schema
      .alterTable('ChargeRecord')
      .addColumn('EndProvisional', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('ForcedOutageRecord').addColumn('ResultReason', 'text').execute();
    for (const column of ['MaxDurationMinutes', 'MaxPowerW', 'FullPowerW', 'FullMinutes']) {
      await db.schema.alterTable('ChargeRule').addColumn(column, 'integer').execute();
    }
  },
};

/**
 * What a charger last said, kept with the socket rather than in one process's memory (issue 19: a charge
 * point may reconnect to another instance): when the status applied was reported (an older report is
 * ignored), the latest power of a running session (float charge, safety limits) and since when it has been
 * below the rule's "full" threshold. ChargeHost.OcppInstance names the instance its charge point is
 * connected to (a late close on another instance does not take it offline; a starting instance releases
 * only its own). The running sessions of a card, found at every start (one card charges on one socket at a
 * time: ConcurrentTx), by a partial index as small as the sessions running.
 */
export const chargerStateMigration: PortableMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('ChargeEquipment').addColumn('OcppStatusAt', 'bigint').execute();
    await db.schema.alterTable('ChargeEquipment').addColumn('LastPowerW', 'integer').execute();
    await db.schema.alterTable('ChargeEquipment').addColumn('FullSince', 'bigint').execute();
    await db.schema.alterTable('ChargeHost').addColumn('OcppInstance', 'text').execute();
    await sql`create index "ChargeRecord_open_card" on "ChargeRecord" ("AreaId", "CardNumber") where "EndAt" is null`.execute(
      db,
    );
  },
};

/**
 * Issue 30, "Chargers configured by Gatehouse" (docs/chargers.md): the last configuration pass of each
 * charging-API host, one row per host replaced by the next pass (on a boot, or the operator's "configure"):
 * when, why, the feature profiles it reported, why the read failed if it did, and per key the value read, the
 * value wanted and the outcome (JSON, the contract's `Keys`). Written only by charge-host; it goes with its host.
 */
export const chargerConfigurationMigration: PortableMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ChargeHostConfiguration')
      .addColumn('ChargeHostId', 'integer', (c) =>
        c.primaryKey().references('ChargeHost.Id').onDelete('cascade'),
      )
      .addColumn('CheckedAt', 'bigint', (c) => c.notNull())
      .addColumn('Trigger', 'text', (c) => c.notNull())
      .addColumn('Profiles', 'text')
      .addColumn('ReadError', 'text')
      .addColumn('Keys', 'text', (c) => c.notNull())
      .execute();
  },
};
