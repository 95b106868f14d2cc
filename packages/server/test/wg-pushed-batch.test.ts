import { cardToDisplay } from '@gatehouse/shared';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import {
  recordCursor,
  storeControllerRecords,
  storePushedRecords,
  type ControllerRecordInput,
} from '../src/modules/access-control/index.ts';
import { describeEachDb, systemContext } from './support/harness.ts';

/**
 * Issue 32: a transaction of pushed records reads its lookups for all its records at once and writes the ledger,
 * the records, the day counts and the cursors many rows a statement, several controllers a statement. What one
 * record at a time gave must hold: in one batch of two controllers, records already stored, records twice in the
 * batch and fresh ones out of order are stored exactly once; each controller's cursor moves over the run at it
 * only; the day counts and the outbox grow by the fresh records alone; a refused swipe is explained as it was
 * (holder, card, authorisation and its validity read for the batch at once); the same batch again adds nothing.
 */
describeEachDb('Pushed records of several controllers in one batch', (h) => {
  const ctx = () => systemContext(h());
  const BASE = 500_000;

  it('stores a mix of stored, repeated and fresh records of two controllers exactly once, with their reasons', async () => {
    const k = h().db.kysely;
    const now = h().clock.now();
    // Two controllers of area 1, each with a door channel the records name.
    const channels = await k
      .selectFrom('AccessControlChannel')
      .innerJoin('AccessControlDevice', 'AccessControlDevice.Id', 'AccessControlChannel.DeviceId')
      .select([
        'AccessControlChannel.Id',
        'AccessControlChannel.DeviceId',
        'AccessControlChannel.DoorNumber',
        'AccessControlChannel.Direction',
      ])
      .where('AccessControlDevice.AreaId', '=', 1)
      .where('AccessControlChannel.DoorNumber', '>', 0)
      .orderBy('AccessControlChannel.Id')
      .execute();
    const chA = channels[0]!;
    const chB = channels.find((c) => c.DeviceId !== chA.DeviceId)!;
    const [a, b] = [chA.DeviceId, chB.DeviceId];

    // Holders and cards for each explanation of a refused swipe.
    const holder = async (name: string, disabled = 0) =>
      (
        await k
          .insertInto('CardUser')
          .values({
            AreaId: 1,
            Name: name,
            Nation: 0,
            DepartmentId: null,
            ValidFrom: now - 86_400_000,
            ValidTo: now + 86_400_000,
            Disabled: disabled,
            CreatedAt: now,
            UpdatedAt: now,
          })
          .returning('Id')
          .executeTakeFirstOrThrow()
      ).Id;
    const card = async (value: number, cardUserId: number | null) => {
      await k
        .insertInto('Card')
        .values({
          AreaId: 1,
          CardNumber: cardToDisplay(value),
          CardType: 0,
          CardUserId: cardUserId,
          Remark: null,
          CreatedAt: now,
          UpdatedAt: now,
        })
        .execute();
      return cardToDisplay(value);
    };
    const link = (cardUserId: number, validTo: number | null) =>
      k
        .insertInto('CardUserLinkChannel')
        .values({
          AreaId: 1,
          CardUserId: cardUserId,
          ChannelId: chA.Id,
          DeviceId: a,
          ValidFrom: validTo === null ? null : now - 3 * 86_400_000,
          ValidTo: validTo,
          IssueStatus: 3,
          NextSyncAt: null,
          SyncError: null,
          SyncedAt: now,
          TimeProfileId: null,
          CreatedAt: now,
          UpdatedAt: now,
        })
        .execute();
    const authorised = await holder('Batch authorised');
    const expired = await holder('Batch expired');
    const unlinked = await holder('Batch unlinked');
    const disabled = await holder('Batch disabled', 1);
    await link(authorised, null);
    await link(expired, now - 2 * 86_400_000);
    const cards = {
      authorised: await card(7_700_001, authorised),
      expired: await card(7_700_002, expired),
      unlinked: await card(7_700_003, unlinked),
      disabled: await card(7_700_004, disabled),
      bare: await card(7_700_005, null),
      unknown: cardToDisplay(7_700_006),
    };

    const at = now - 60_000;
    const swipe = (
      ch: typeof chA,
      index: number,
      cardNumber: string,
      granted = false,
      type = 1,
    ): ControllerRecordInput => ({
      DoorNumber: ch.DoorNumber,
      Direction: ch.Direction,
      CardNumber: cardNumber,
      At: at + index,
      Result: granted,
      RecordIndex: BASE + index,
      EventType: type,
      EventReason: granted ? 1 : 6,
    });
    // Already stored: A's 1 and 2 (its cursor then at 3), B's 5 (its cursor at 1: records 1–4 not read yet).
    await storeControllerRecords(
      ctx(),
      a,
      [swipe(chA, 1, cards.authorised, true), swipe(chA, 2, cards.authorised, true)],
      { nextIndex: BASE + 3, lost: 0 },
    );
    await storeControllerRecords(ctx(), b, [swipe(chB, 5, cards.authorised, true)], {
      nextIndex: BASE + 1,
      lost: 0,
    });

    const days = async () =>
      Number(
        (
          await k
            .selectFrom('DoorOpeningRecordDay')
            .select(sql<number>`coalesce(sum("Count"), 0)`.as('n'))
            .where('DeviceId', 'in', [a, b])
            .executeTakeFirstOrThrow()
        ).n,
      );
    const events = async () =>
      Number(
        (
          await k
            .selectFrom('OutboxEvent')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('Type', '=', 'swipe.recorded')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const [daysBefore, eventsBefore] = [await days(), await events()];

    const batch = [
      {
        deviceId: a,
        // Out of ring order, 2 stored already, 3 twice, 6 past a gap (5 not pushed).
        inputs: [
          swipe(chA, 4, cards.expired),
          swipe(chA, 2, cards.authorised, true),
          swipe(chA, 3, cards.authorised),
          swipe(chA, 3, cards.authorised),
          swipe(chA, 6, cards.unlinked),
        ],
      },
      {
        deviceId: b,
        inputs: [
          swipe(chB, 5, cards.authorised, true),
          swipe(chB, 6, cards.disabled),
          swipe(chB, 2, cards.bare),
          swipe(chB, 7, cards.unknown),
          swipe(chB, 8, cards.authorised, true),
          swipe(chB, 9, '0', false, 2),
        ],
      },
    ];
    const stored = await storePushedRecords(ctx(), batch);
    // doorRecordReason: 16 the controller's refusal (authorised, within validity), 5 outside the validity, 4 no
    // authorisation on the channel, 6 holder disabled, 3 card not given out, 2 card unknown, 1 granted, 0 a door
    // event. In the order given, each controller's fresh records once.
    expect(stored.map((r) => [r.DeviceId, r.RecordIndex! - BASE, r.Reason])).toEqual([
      [a, 4, 5],
      [a, 3, 16],
      [a, 6, 4],
      [b, 6, 6],
      [b, 2, 3],
      [b, 7, 2],
      [b, 8, 1],
      [b, 9, 0],
    ]);
    expect(stored.find((r) => r.RecordIndex === BASE + 3)).toMatchObject({
      CardUserId: authorised,
      HolderName: 'Batch authorised',
      ChannelId: chA.Id,
    });

    // Exactly once: one record and one ledger key per ring index, none beyond what was pushed.
    const copies = async () =>
      (
        await k
          .selectFrom('DoorOpeningRecord')
          .select(['DeviceId', 'RecordIndex', sql<number>`count(*)`.as('n')])
          .where('DeviceId', 'in', [a, b])
          .where('RecordIndex', '>=', BASE)
          .groupBy(['DeviceId', 'RecordIndex'])
          .orderBy('DeviceId')
          .orderBy('RecordIndex')
          .execute()
      ).map((r) => [Number(r.DeviceId), Number(r.RecordIndex) - BASE, Number(r.n)]);
    const expected = [
      ...[1, 2, 3, 4, 6].map((i) => [a, i, 1]),
      ...[2, 5, 6, 7, 8, 9].map((i) => [b, i, 1]),
    ].sort((x, y) => x[0]! - y[0]! || x[1]! - y[1]!);
    expect(await copies()).toEqual(expected);
    const keys = await k
      .selectFrom('DoorOpeningRecordKey')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('DeviceId', 'in', [a, b])
      .where('RecordIndex', '>=', BASE)
      .executeTakeFirstOrThrow();
    expect(Number(keys.n)).toBe(expected.length);

    // A's cursor moves over 3 and 4 (the run at it) and stops at the gap; B's stays at 1 for the poll.
    expect(await recordCursor(ctx(), a)).toEqual({ nextIndex: BASE + 5, lost: 0 });
    expect(await recordCursor(ctx(), b)).toEqual({ nextIndex: BASE + 1, lost: 0 });
    // The counts and the events grow by the eight fresh records only.
    expect(await days()).toBe(daysBefore + 8);
    expect(await events()).toBe(eventsBefore + 8);

    // The same batch again: nothing stored, counted, told or moved.
    expect(await storePushedRecords(ctx(), batch)).toEqual([]);
    expect(await copies()).toEqual(expected);
    expect(await days()).toBe(daysBefore + 8);
    expect(await events()).toBe(eventsBefore + 8);
    expect(await recordCursor(ctx(), a)).toEqual({ nextIndex: BASE + 5, lost: 0 });
  });
});
