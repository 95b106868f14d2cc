import { dayNumber, type HolidayApi, type HolidayItem } from '@gatehouse/shared';
import type { z } from 'zod';
import type { AreaContext } from '../../../platform/context.ts';
import { rowMapper } from '../../../platform/resource.ts';
import { markRulesChanged } from '../access-control-device/rules.ts';
import type { Trx } from '../common.ts';
import { assertProfileBudget, planInputs } from '../time-profile/service.ts';

type CreateBody = z.output<typeof HolidayApi.create.body>;
type UpdateBody = z.output<typeof HolidayApi.update.body>;

/**
 * The area's holiday calendar. A holiday splits every profile marked "not on holidays" that it falls in, on
 * every controller using one: a change is counted against each controller's 253 slots before it is stored.
 */
export function holidayQuery(db: Trx) {
  return db
    .selectFrom('Holiday')
    .select(['Id', 'Name', 'StartDate', 'EndDate', 'Remark', 'CreatedAt', 'UpdatedAt']);
}

const mapHoliday = rowMapper<HolidayItem>({ flags: [] });

export function toHolidayItem(row: Record<string, unknown>): HolidayItem {
  const item = mapHoliday(row);
  return { ...item, Days: dayNumber(item.EndDate) - dayNumber(item.StartDate) + 1 };
}

/** Holidays touching a year: they start before its end and end after its start (dates compare as text). */
export const touchesYear =
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any list's expression builder
  (eb: any, year: number) =>
    eb.and([eb('Holiday.StartDate', '<=', `${year}-12-31`), eb('Holiday.EndDate', '>=', `${year}-01-01`)]);

const columns = (input: CreateBody | UpdateBody) => ({
  Name: input.Name,
  StartDate: input.StartDate,
  EndDate: input.EndDate,
  Remark: input.Remark ?? null,
});

/** Counts every controller of the area with the holidays as the write leaves them, then marks them changed. */
async function counted(
  ctx: AreaContext,
  trx: Trx,
  holidays: (inputs: Awaited<ReturnType<typeof planInputs>>) => void,
) {
  const inputs = await planInputs(trx, ctx.areaId);
  holidays(inputs);
  await assertProfileBudget(trx, ctx.areaId, inputs);
  await markRulesChanged(trx, { areaId: ctx.areaId }, ctx.clock.now());
}

export async function newHoliday(input: CreateBody, ctx: AreaContext, trx: Trx) {
  await counted(ctx, trx, (inputs) => inputs.holidays.push(columns(input)));
  return columns(input);
}

export async function changedHoliday(
  input: UpdateBody,
  ctx: AreaContext,
  trx: Trx,
  existing: Record<string, unknown>,
) {
  await counted(ctx, trx, (inputs) => {
    const at = inputs.holidays.findIndex(
      (h) => h.StartDate === existing.StartDate && h.EndDate === existing.EndDate && h.Name === existing.Name,
    );
    if (at >= 0) inputs.holidays.splice(at, 1);
    inputs.holidays.push(columns(input));
  });
  return columns(input);
}

/** Fewer holidays never need more slots: only the controllers are told. */
export async function holidayRemoved(ctx: AreaContext, trx: Trx): Promise<void> {
  await markRulesChanged(trx, { areaId: ctx.areaId }, ctx.clock.now());
}
