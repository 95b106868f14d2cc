import { audit } from '../../../platform/audit.ts';
import { fencedWrite, type ServiceContext } from '../../../platform/context.ts';

// Beside the swipe service (service.ts), the single way swipe records, their exactly-once ledger and the
// collection cursor are written (packages/server/test/writers.test.ts).

/**
 * The controller's record ring started over (reset to defaults, or replaced: its newest record is older than the
 * collection cursor). The records stored from the old ring keep their rows but no longer their ring index (they
 * cannot be read again, and the new ring reuses the indexes) and their keys leave the exactly-once ledger
 * (DoorOpeningRecordKey) in the same transaction, so the new ring's records are stored under the same indexes;
 * collection starts again from the new ring's first record. Audited by the device.
 */
export async function recordRingRestarted(
  ctx: ServiceContext,
  deviceId: number,
  newest: number,
): Promise<void> {
  await fencedWrite(ctx, async (trx) => {
    await trx
      .updateTable('DoorOpeningRecord')
      .set({ RecordIndex: null })
      .where('DeviceId', '=', deviceId)
      .where('RecordIndex', 'is not', null)
      .execute();
    await trx.deleteFrom('DoorOpeningRecordKey').where('DeviceId', '=', deviceId).execute();
    await trx.deleteFrom('AccessControlRecordCursor').where('DeviceId', '=', deviceId).execute();
    await trx
      .insertInto('AccessControlRecordCursor')
      .values({ DeviceId: deviceId, NextIndex: 1, UpdatedAt: ctx.clock.now() })
      .execute();
    await audit(
      ctx,
      {
        action: 'restore',
        entity: 'AccessControlDevice',
        entityId: deviceId,
        after: { Evidence: `record ring restarted (newest record ${newest})` },
      },
      trx,
    );
  });
}
