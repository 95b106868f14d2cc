// A resource's writes (create, update, delete, status), each in one transaction with its audit entry: apart from
// the declaration and the reads (resource-store.ts) so each file holds one job (issue 28); resource.ts routes
// the contract's write operations here.
import type { Kysely } from 'kysely';
import { audit } from './audit.ts';
import { AppError, notFound } from './errors.ts';
import { scopedArea, type ServiceContext } from './context.ts';
import { findRow, getResource, type ResourceDef } from './resource-store.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the helper serves every table; declarations stay typed. */
type AnyKysely = Kysely<any>;
type Row = Record<string, any>;

/** The raw table row (all columns) of the current area, or 404: what audit "before" records. */
async function findRaw(
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  rowId: number,
  trx: AnyKysely,
): Promise<Row> {
  // Visibility first, by the declaration's own query (a pool resource shows only the pool and the
  // caller's areas): a row the caller cannot see is not found, before any check could describe it.
  await findRow(def, ctx, rowId, trx);
  let query = trx.selectFrom(def.table).selectAll().where('Id', '=', rowId);
  if (def.area) query = query.where('AreaId', '=', scopedArea(ctx));
  const row = await query.executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

async function assertUnique(
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  trx: AnyKysely,
  values: Row,
  exceptId?: number,
) {
  for (const rule of def.unique ?? []) {
    if (rule.fields.some((f) => values[f] === undefined)) continue;
    let query = trx.selectFrom(def.table).select('Id');
    for (const f of rule.fields)
      query = values[f] === null ? query.where(f, 'is', null) : query.where(f, '=', values[f]);
    if (def.area) query = query.where('AreaId', '=', scopedArea(ctx));
    if (exceptId !== undefined) query = query.where('Id', '!=', exceptId);
    if (await query.executeTakeFirst()) throw new AppError(409, rule.key);
  }
}

export async function createResource<Item extends Row>(
  def: ResourceDef<Item, any, any, any, any>,
  ctx: ServiceContext,
  input: Row,
): Promise<Item> {
  const now = ctx.clock.now();
  const createdId = await ctx.db.kysely.transaction().execute(async (trx) => {
    const values: Row = {
      ...(await def.create!.values(input, ctx, trx)),
      ...(def.area ? { AreaId: scopedArea(ctx) } : {}),
      ...(def.timestamps ? { CreatedAt: now, UpdatedAt: now } : {}),
    };
    await assertUnique(def, ctx, trx as AnyKysely, values);
    const created = await (trx as AnyKysely)
      .insertInto(def.table)
      .values(values)
      .returning('Id')
      .executeTakeFirstOrThrow();
    await def.create!.after?.(input, ctx, trx, created.Id as number);
    await audit(
      ctx,
      {
        action: 'create',
        entity: def.name,
        entityId: created.Id,
        after: { Id: created.Id, ...input, ...values },
      },
      trx,
    );
    return created.Id as number;
  });
  return getResource(def, ctx, createdId);
}

export async function updateResource<Item extends Row>(
  def: ResourceDef<Item, any, any, any, any>,
  ctx: ServiceContext,
  input: Row,
): Promise<Item> {
  const rowId = input.Id as number;
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const before = await findRaw(def, ctx, rowId, trx as AnyKysely);
    const values: Row = {
      ...(await def.update!.values(input, ctx, trx, before)),
      ...(def.timestamps ? { UpdatedAt: ctx.clock.now() } : {}),
    };
    delete values.Id;
    delete values.AreaId;
    await assertUnique(def, ctx, trx as AnyKysely, { ...before, ...values }, rowId);
    await (trx as AnyKysely).updateTable(def.table).set(values).where('Id', '=', rowId).execute();
    await def.update!.after?.(input, ctx, trx, before);
    await audit(
      ctx,
      { action: 'update', entity: def.name, entityId: rowId, before, after: { ...before, ...values } },
      trx,
    );
  });
  return getResource(def, ctx, rowId);
}

/** Deletes rows of the current area in one transaction: all or none (the first refusal aborts). */
export async function deleteResources(
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  ids: number[],
): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    for (const rowId of new Set(ids)) {
      const before = await findRaw(def, ctx, rowId, trx as AnyKysely);
      await def.remove!.check?.(ctx, before, trx);
      const deleted = await (trx as AnyKysely)
        .deleteFrom(def.table)
        .where('Id', '=', rowId)
        .executeTakeFirst();
      // A concurrent delete won the row between the read and here (PostgreSQL runs both): nothing was
      // removed, so the caller gets 404 and no audit entry, and a batch rolls back whole.
      if (Number(deleted.numDeletedRows) === 0) throw notFound();
      await audit(ctx, { action: 'delete', entity: def.name, entityId: rowId, before }, trx);
    }
  });
}

export async function setResourceStatus(
  def: ResourceDef<any, any, any, any, any>,
  ctx: ServiceContext,
  rowId: number,
  disabled: boolean,
): Promise<void> {
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const before = await findRaw(def, ctx, rowId, trx as AnyKysely);
    await def.status!.check?.(ctx, before, disabled, trx);
    const values: Row = {
      Disabled: disabled ? 1 : 0,
      ...(def.timestamps ? { UpdatedAt: ctx.clock.now() } : {}),
    };
    await (trx as AnyKysely).updateTable(def.table).set(values).where('Id', '=', rowId).execute();
    await audit(
      ctx,
      { action: 'status', entity: def.name, entityId: rowId, before, after: { ...before, ...values } },
      trx,
    );
  });
}
