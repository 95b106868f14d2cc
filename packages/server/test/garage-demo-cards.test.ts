import { expect, it } from 'vitest';
import { describeEachDb } from './support/harness.ts';

/** A card is one person's: the demo never has it charging on two sockets at the same time. */
describeEachDb('garage demo seed', (h) => {
  it('never charges one card on two sockets at once', async () => {
    const rows = await h()
      .db.kysely.selectFrom('ChargeRecord')
      .select(['Id', 'AreaId', 'CardNumber', 'ChargeEquipmentId', 'StartAt', 'EndAt'])
      .orderBy('AreaId')
      .orderBy('CardNumber')
      .orderBy('StartAt')
      .execute();
    expect(rows.length).toBeGreaterThan(100);
    const overlaps: string[] = [];
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      if (a.AreaId !== b.AreaId || a.CardNumber !== b.CardNumber) continue;
      // Sorted by start: the next session of the card must start after the previous one ended.
      if (a.EndAt === null || Number(b.StartAt) < Number(a.EndAt))
        overlaps.push(`${a.CardNumber}: records ${a.Id} and ${b.Id}`);
    }
    expect(overlaps).toEqual([]);
  });
});
