import type { PermissionCode } from '@gatehouse/shared';

/**
 * Built-in permission codes (the spec's role names, declared in @gatehouse/shared) under the menu groups
 * they gate, with their Chinese names. The order gives the seeded resources their ids and Sort: keep it.
 */
export const RESOURCE_TREE = [
  {
    code: 'menu:system',
    name: '系统设置',
    children: [
      { code: 'SuperAdmin', name: '超级管理员' },
      { code: 'AreaInfo/Admin', name: '区域管理' },
      { code: 'Resource', name: '资源管理' },
      { code: 'Export', name: '导出管理' },
    ],
  },
  {
    code: 'menu:accesscontrol',
    name: '门禁管理',
    children: [
      { code: 'AccessControl/Admin', name: '门禁管理员' },
      { code: 'AccessControl/User', name: '门禁操作员' },
    ],
  },
  {
    code: 'menu:bicycle',
    name: '非机动车库',
    children: [
      { code: 'Bicycle/Admin', name: '车库管理员' },
      { code: 'Bicycle/User', name: '车库操作员' },
    ],
  },
  {
    code: 'menu:organization',
    name: '组织架构',
    children: [
      { code: 'Department/Admin', name: '部门管理员' },
      { code: 'Department/User', name: '部门查看' },
      { code: 'PeopleGroup/Admin', name: '人员分组管理' },
    ],
  },
  {
    code: 'menu:usermanagement',
    name: '系统用户',
    children: [
      { code: 'AppUser/Admin', name: '用户管理' },
      { code: 'AppUser/AdminConfig', name: '运营人员配置' },
      { code: 'Role/Admin', name: '角色管理' },
    ],
  },
] as const satisfies readonly {
  code: string;
  name: string;
  children: readonly { code: PermissionCode; name: string }[];
}[];

export const DEMO_PASSWORD = 'Demo@2026';

/** One demo operator per permission code; area 1 only for the two everyday operators. */
export const DEMO_USERS: {
  userName: string;
  name: string;
  code: PermissionCode;
  areas: 'both' | 'first' | 'none';
}[] = [
  { userName: 'superadmin', name: '周明远', code: 'SuperAdmin', areas: 'both' },
  { userName: 'areaadmin', name: '吴晓峰', code: 'AreaInfo/Admin', areas: 'both' },
  { userName: 'acadmin', name: '郑国强', code: 'AccessControl/Admin', areas: 'both' },
  { userName: 'acuser', name: '王丽娟', code: 'AccessControl/User', areas: 'first' },
  { userName: 'bikeadmin', name: '冯志伟', code: 'Bicycle/Admin', areas: 'both' },
  { userName: 'bikeuser', name: '陈静', code: 'Bicycle/User', areas: 'first' },
  { userName: 'deptadmin', name: '褚建华', code: 'Department/Admin', areas: 'both' },
  { userName: 'deptuser', name: '卫红梅', code: 'Department/User', areas: 'both' },
  { userName: 'groupadmin', name: '蒋文斌', code: 'PeopleGroup/Admin', areas: 'both' },
  { userName: 'useradmin', name: '沈雅琴', code: 'AppUser/Admin', areas: 'both' },
  { userName: 'operatorconfig', name: '韩立新', code: 'AppUser/AdminConfig', areas: 'both' },
  { userName: 'roleadmin', name: '杨帆', code: 'Role/Admin', areas: 'both' },
  { userName: 'resource', name: '朱海燕', code: 'Resource', areas: 'both' },
  { userName: 'exporter', name: '秦凯', code: 'Export', areas: 'both' },
  { userName: 'noarea', name: '尤佳', code: 'Export', areas: 'none' },
];

export const DEMO_AREAS = [
  {
    Name: '滨江花园社区',
    Custom: { address: '杭州市滨江区江南大道 1288 号', contact: '0571-88860001', timezone: 'Asia/Shanghai' },
  },
  {
    Name: '科技园校区',
    Custom: { address: '深圳市南山区科技园南区 8 栋', contact: '0755-26600002', timezone: 'Asia/Shanghai' },
  },
];
