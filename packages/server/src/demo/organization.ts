import type { Db } from '../db/database.ts';
import type { DemoContext } from './context.ts';
import { inTransaction } from '../db/transaction.ts';

interface DepartmentSeed {
  name: string;
  children?: DepartmentSeed[];
}

/** Per demo area: a department tree, people groups and people types, as a property or campus operator has them. */
const ORGANIZATIONS: { departments: DepartmentSeed[]; groups: string[]; types: string[] }[] = [
  {
    departments: [
      {
        name: '物业服务中心',
        children: [
          { name: '客户服务部' },
          { name: '工程维修部', children: [{ name: '强电班' }, { name: '弱电班' }] },
          { name: '秩序维护部', children: [{ name: '一号岗亭' }, { name: '二号岗亭' }, { name: '巡逻队' }] },
          { name: '环境保洁部' },
        ],
      },
      { name: '业主委员会' },
      { name: '社区居委会', children: [{ name: '网格一组' }, { name: '网格二组' }] },
    ],
    groups: ['业主', '租户', '家属', '物业员工', '外包服务人员', '长期访客'],
    types: ['常住人员', '临时人员', '重点关爱人员', '服务人员'],
  },
  {
    departments: [
      {
        name: '园区运营中心',
        children: [
          { name: '招商服务部' },
          { name: '设施设备部', children: [{ name: '充电设施组' }, { name: '门禁运维组' }] },
          { name: '安全保卫部' },
        ],
      },
      { name: '研发中心', children: [{ name: '平台研发部' }, { name: '硬件研发部' }, { name: '测试部' }] },
      { name: '行政人事部' },
      { name: '入驻企业联络处' },
    ],
    groups: ['园区员工', '入驻企业员工', '实习生', '外包服务人员', '访客'],
    types: ['正式员工', '合同工', '临时人员', 'VIP 访客'],
  },
];

export async function seedOrganizationDemo(db: Db, ctx: DemoContext): Promise<void> {
  const stamps = { CreatedAt: ctx.now, UpdatedAt: ctx.now };
  await inTransaction(db.kysely, async (trx) => {
    for (const [index, org] of ORGANIZATIONS.entries()) {
      const AreaId = ctx.areaIds[index];
      if (AreaId === undefined) continue;
      const insertTree = async (nodes: DepartmentSeed[], ParentId: number | null) => {
        for (const [Sort, node] of nodes.entries()) {
          const row = await trx
            .insertInto('Department')
            .values({ AreaId, ParentId, Name: node.name, Sort, ...stamps })
            .returning('Id')
            .executeTakeFirstOrThrow();
          if (node.children) await insertTree(node.children, row.Id);
        }
      };
      await insertTree(org.departments, null);
      await trx
        .insertInto('PeopleGroup')
        .values(org.groups.map((Name, Sort) => ({ AreaId, Name, Remark: null, Sort, ...stamps })))
        .execute();
      await trx
        .insertInto('PeopleType')
        .values(org.types.map((Name, Sort) => ({ AreaId, Name, Remark: null, Sort, ...stamps })))
        .execute();
    }
  });
}
