import type { ResourceApi, ResourceItem, ResourceNode } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../../db/schema.ts';
import type { ServiceContext } from '../../../platform/context.ts';
import { assertNoDependents } from '../../../platform/dependents.ts';
import { AppError, fieldError } from '../../../platform/errors.ts';
import { rowMapper } from '../../../platform/resource.ts';

type Trx = Kysely<Database>;
type Row = Record<string, unknown>;

/** A parent must exist and be a menu (permissions are leaves), and not be the resource itself or below it. */
async function checkParent(trx: Trx, parentId: number, selfId?: number) {
  const all = await trx.selectFrom('Resource').select(['Id', 'ParentId', 'Type']).execute();
  const parent = all.find((r) => r.Id === parentId);
  if (!parent || parent.Type !== 'menu') throw fieldError('ParentId', 'error.resourceParentInvalid');
  for (
    let at: number | null | undefined = parentId;
    at != null;
    at = all.find((r) => r.Id === at)?.ParentId
  ) {
    if (at === selfId) throw fieldError('ParentId', 'error.resourceParentInvalid');
  }
}

/** Every column of a resource plus the number of roles holding it. */
export function resourceColumns(db: Trx) {
  return db.selectFrom('Resource').select((eb) => [
    'Resource.Id',
    'Resource.Code',
    'Resource.Name',
    'Resource.ParentId',
    'Resource.Type',
    'Resource.Sort',
    'Resource.BuiltIn',
    eb
      .selectFrom('RoleResource')
      .select((e) => e.fn.countAll().as('n'))
      .whereRef('RoleResource.ResourceId', '=', 'Resource.Id')
      .as('RoleCount'),
  ]);
}

const mapResource = rowMapper<ResourceItem>({ flags: ['BuiltIn'], instants: [] });
export function resourceRow(row: Row): ResourceItem {
  return { ...mapResource(row), RoleCount: Number(row.RoleCount ?? 0) };
}

/** Every resource as a tree (menus with their permissions), by Sort. */
export async function resourceTree(ctx: ServiceContext): Promise<ResourceNode[]> {
  const rows = await resourceColumns(ctx.db.kysely).orderBy('Sort').orderBy('Id').execute();
  const nodes = new Map<number, ResourceNode>(rows.map((r) => [r.Id, { ...resourceRow(r), Children: [] }]));
  const roots: ResourceNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.ParentId === null ? undefined : nodes.get(node.ParentId);
    (parent ? parent.Children : roots).push(node);
  }
  return roots;
}

type CreateBody = z.output<typeof ResourceApi.create.body>;
type UpdateBody = z.output<typeof ResourceApi.update.body>;

export async function newResource(input: CreateBody, _ctx: unknown, trx: Trx) {
  if (input.ParentId) await checkParent(trx, input.ParentId);
  return {
    Code: input.Code,
    Name: input.Name,
    Type: input.Type,
    ParentId: input.ParentId ?? null,
    Sort: input.Sort ?? 0,
    BuiltIn: 0,
  };
}

export async function changedResource(input: UpdateBody, _ctx: unknown, trx: Trx) {
  if (input.ParentId) await checkParent(trx, input.ParentId, input.Id);
  return {
    Name: input.Name,
    ...(input.ParentId !== undefined ? { ParentId: input.ParentId } : {}),
    ...(input.Sort !== undefined ? { Sort: input.Sort } : {}),
  };
}

/** Built-in resources stay; so does one with children or roles. */
export async function checkResourceDelete(ctx: ServiceContext, row: Row, trx: Trx) {
  if (row.BuiltIn) throw new AppError(409, 'error.builtInResource');
  await assertNoDependents('Resource', trx, row.Id as number, ctx.lang);
}
