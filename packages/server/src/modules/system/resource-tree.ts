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
