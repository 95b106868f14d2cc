import type { DepartmentNode } from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { memberCounts } from './members.ts';

export type { DepartmentNode };

/** The area's departments as a forest, siblings by Sort then Name, with member counts. */
export async function departmentTree(db: Kysely<Database>, areaId: number): Promise<DepartmentNode[]> {
  const [rows, counts] = await Promise.all([
    db
      .selectFrom('Department')
      .select(['Id', 'ParentId', 'Name', 'Sort'])
      .where('AreaId', '=', areaId)
      .orderBy('Sort')
      .orderBy('Name')
      .orderBy('Id')
      .execute(),
    memberCounts(db, areaId),
  ]);
  const nodes = new Map<number, DepartmentNode>();
  for (const r of rows) {
    const own = counts.get(r.Id) ?? 0;
    nodes.set(r.Id, { ...r, MemberCount: own, TotalMemberCount: own, Children: [] });
  }
  const roots: DepartmentNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.ParentId === null ? undefined : nodes.get(node.ParentId);
    if (parent) parent.Children.push(node);
    else roots.push(node);
  }
  const total = (node: DepartmentNode): number => {
    node.TotalMemberCount = node.MemberCount + node.Children.reduce((sum, child) => sum + total(child), 0);
    return node.TotalMemberCount;
  };
  roots.forEach(total);
  return roots;
}

/** Ids of a department and all its descendants (for "is the new parent inside me?"). */
export async function subtreeIds(db: Kysely<Database>, areaId: number, rootId: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom('Department')
    .select(['Id', 'ParentId'])
    .where('AreaId', '=', areaId)
    .execute();
  const children = new Map<number, number[]>();
  for (const r of rows)
    if (r.ParentId !== null) children.set(r.ParentId, [...(children.get(r.ParentId) ?? []), r.Id]);
  const out = new Set<number>();
  const stack = [rootId];
  while (stack.length) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}
