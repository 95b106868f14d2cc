import {
  RESOURCE_MANAGERS,
  RESOURCE_READERS,
  resourceItem,
  resourceNode,
  type ResourceItem,
  type ResourceNode,
} from '@gatehouse/shared';
import { z } from 'zod';
import { assertNoDependents, registerDependent, rowsWhere } from '../../../platform/dependents.ts';
import { AppError, fieldError } from '../../../platform/errors.ts';
import { filter } from '../../../platform/filters.ts';
import { defineResource, rowMapper } from '../../../platform/resource.ts';
import type { ServiceContext } from '../../../platform/context.ts';
import { defineRoute } from '../../../platform/route.ts';
import { id } from '../../../platform/schemas.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/** Resource managers edit the tree; role managers read it to assign resources to roles. */
const WRITE = RESOURCE_MANAGERS;
const READ = RESOURCE_READERS;
type Item = ResourceItem;

const code = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9/:_-]{1,59}$/, { message: 'validation.resourceCode' });
const fields = {
  Name: z.string().trim().min(1).max(50),
  ParentId: id.nullable().optional(),
  Sort: z.number().int().min(0).max(9999).optional(),
};

/** A resource with children or roles stays (called by the system face). */
export function registerResourceDependents(): void {
  registerDependent('Resource', {
    labelKey: 'admin.entity.ChildResource',
    count: rowsWhere('Resource', 'ParentId'),
  });
  registerDependent('Resource', {
    labelKey: 'admin.entity.Role',
    count: rowsWhere('RoleResource', 'ResourceId'),
  });
}

/** A parent must exist and be a menu (permissions are leaves), and not be the resource itself or below it. */
async function checkParent(trx: Kysely<Database>, parentId: number, selfId?: number) {
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
function resourceColumns(db: Kysely<Database>) {
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

/** Every resource as a tree (menus with their permissions), by Sort. */
export async function resourceTree(ctx: ServiceContext): Promise<ResourceNode[]> {
  const rows = await resourceColumns(ctx.db.kysely).orderBy('Sort').orderBy('Id').execute();
  const nodes = new Map<number, ResourceNode>(rows.map((r) => [r.Id, { ...toItem(r), Children: [] }]));
  const roots: ResourceNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.ParentId === null ? undefined : nodes.get(node.ParentId);
    (parent ? parent.Children : roots).push(node);
  }
  return roots;
}

function toItem(row: Record<string, unknown>): Item {
  return {
    ...rowMapper<Item>({ flags: ['BuiltIn'], instants: [] })(row),
    RoleCount: Number(row.RoleCount ?? 0),
  };
}

export const resourceRoutes = [
  defineRoute({
    method: 'GET',
    url: '/api/Resource/Tree',
    summary: 'Every resource as a tree (menus and permission codes)',
    tag: 'Resource',
    access: READ,
    response: z.array(resourceNode),
    handler: (_input, ctx) => resourceTree(ctx),
  }),
  ...defineResource({
    name: 'Resource',
    table: 'Resource',
    area: false,
    read: READ,
    write: WRITE,
    item: resourceItem,
    query: (db) => resourceColumns(db as Kysely<Database>),
    toItem,
    filters: {
      Keyword: filter.keyword(['Resource.Code', 'Resource.Name']),
      ParentId: filter.id('Resource.ParentId'),
    },
    sorts: { Sort: 'Resource.Sort', Code: 'Resource.Code', Name: 'Resource.Name' },
    unique: [{ fields: ['Code'], key: 'error.resourceCodeTaken' }],
    create: {
      body: z.strictObject({ Code: code, Type: z.enum(['menu', 'permission']), ...fields }),
      async values(input, _ctx, trx) {
        if (input.ParentId) await checkParent(trx, input.ParentId);
        return {
          Code: input.Code,
          Name: input.Name,
          Type: input.Type,
          ParentId: input.ParentId ?? null,
          Sort: input.Sort ?? 0,
          BuiltIn: 0,
        };
      },
    },
    update: {
      body: z.strictObject({ Id: id, ...fields }),
      async values(input, _ctx, trx) {
        if (input.ParentId) await checkParent(trx, input.ParentId, input.Id);
        return {
          Name: input.Name,
          ...(input.ParentId !== undefined ? { ParentId: input.ParentId } : {}),
          ...(input.Sort !== undefined ? { Sort: input.Sort } : {}),
        };
      },
    },
    remove: {
      async check(ctx, row, trx) {
        if (row.BuiltIn) throw new AppError(409, 'error.builtInResource');
        await assertNoDependents('Resource', trx, row.Id as number, ctx.lang);
      },
    },
    afterWrite: (ctx) => ctx.platform.sessions.invalidate(),
  }),
];
