import type { PermissionCode } from '@gatehouse/shared';

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
