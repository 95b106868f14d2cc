import type { Db } from '../db/database.ts';
import type { DemoContext } from './context.ts';
import { inTransaction } from '../db/transaction.ts';

/** Operator staff per area (who receives fault reports) and a few more operators bound to departments. */
const STAFF: { name: string; type: number; phone: string; remark: string | null }[][] = [
  [
    { name: '李建国', type: 1, phone: '13905710001', remark: '物业经理' },
    { name: '张伟', type: 0, phone: '13905710002', remark: '白班值班' },
    { name: '刘洋', type: 0, phone: '13905710003', remark: '夜班值班' },
    { name: '赵师傅', type: 2, phone: '13905710004', remark: '门禁与道闸维修' },
    { name: '孙磊', type: 2, phone: '13905710005', remark: '充电桩维修' },
  ],
  [
    { name: '黄志强', type: 1, phone: '13807550001', remark: '园区运营总监' },
    { name: '何晓燕', type: 0, phone: '13807550002', remark: null },
    { name: '马超', type: 2, phone: '13807550003', remark: '设施设备部' },
  ],
];

const OPERATORS: { userName: string; name: string; department: string; area: number; role: string }[] = [
  { userName: 'kefu01', name: '林小雨', department: '客户服务部', area: 0, role: 'AccessControl/User' },
  { userName: 'gongcheng01', name: '郭建军', department: '工程维修部', area: 0, role: 'Bicycle/User' },
  { userName: 'anbao01', name: '罗志勇', department: '秩序维护部', area: 0, role: 'AccessControl/User' },
  { userName: 'yunying01', name: '梁思琪', department: '园区运营中心', area: 1, role: 'Bicycle/Admin' },
  { userName: 'sheshi01', name: '宋德明', department: '设施设备部', area: 1, role: 'AccessControl/Admin' },
];

export async function seedSystemDemo(db: Db, ctx: DemoContext): Promise<void> {
  const stamps = { CreatedAt: ctx.now, UpdatedAt: ctx.now };
  await inTransaction(db.kysely, async (trx) => {
    for (const [index, staff] of STAFF.entries()) {
      const AreaId = ctx.areaIds[index];
      if (AreaId === undefined) continue;
      await trx
        .insertInto('OperatorStaff')
        .values(
          staff.map((s) => ({
            AreaId,
            Name: s.name,
            StaffType: s.type,
            Phone: s.phone,
            Email: null,
            WechatOpenId: null,
            Remark: s.remark,
            ...stamps,
          })),
        )
        .execute();
    }
    for (const op of OPERATORS) {
      const AreaId = ctx.areaIds[op.area];
      if (AreaId === undefined) continue;
      const department = await trx
        .selectFrom('Department')
        .select('Id')
        .where('AreaId', '=', AreaId)
        .where('Name', '=', op.department)
        .executeTakeFirstOrThrow();
      const role = await trx
        .selectFrom('Role')
        .select('Id')
        .where('Code', '=', op.role)
        .executeTakeFirstOrThrow();
      const user = await trx
        .insertInto('AppUser')
        .values({
          UserName: op.userName,
          Name: op.name,
          PasswordHash: ctx.passwordHash,
          Avatar: null,
          Phone: null,
          Email: null,
          DepartmentId: department.Id,
          ...stamps,
        })
        .returning('Id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('UserRole').values({ UserId: user.Id, RoleId: role.Id }).execute();
      await trx.insertInto('UserArea').values({ UserId: user.Id, AreaId }).execute();
    }
  });
}
