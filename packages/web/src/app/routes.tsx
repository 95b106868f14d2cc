import type { AppRoute, PageLoader, PendingModule } from './route-types.ts';

/**
 * Placeholder for a business screen whose module has not landed: it names the screen and the module.
 * A module replaces `pending('x')` in its entries with `() => import('../pages/x/Screen.tsx')`.
 */
function pending(module: PendingModule): PageLoader {
  return () => import('../pages/pending/ModulePending.tsx').then((m) => ({ default: m.pendingPage(module) }));
}

const AC_ANY = ['AccessControl/Admin', 'AccessControl/User'] as const;
const BIKE_ANY = ['Bicycle/Admin', 'Bicycle/User'] as const;
const AREA_MANAGERS = ['SuperAdmin', 'AreaInfo/Admin'] as const;

/** People groups and people types share one path, so one page (and one loader) serves both. */
const peopleGroupPage: PageLoader = () => import('../pages/organization/people-groups/PeopleGroupsPage.tsx');

/** Public routes outside the layout (spec section 2, "Public or hidden routes"). */
export const publicRoutes: readonly AppRoute[] = [
  {
    path: '/login',
    name: 'Login',
    titleKey: 'route.login',
    hidden: true,
    page: () => import('../pages/login/LoginPage.tsx'),
  },
  {
    path: '/auth-redirect',
    name: 'AuthRedirect',
    titleKey: 'route.login',
    hidden: true,
    page: () => import('../pages/auth-redirect/AuthRedirectPage.tsx'),
  },
  {
    path: '/404',
    name: 'NotFound',
    titleKey: 'route.page404',
    hidden: true,
    page: () => import('../pages/error/Page404.tsx'),
  },
  {
    path: '/401',
    name: 'Unauthorized',
    titleKey: 'route.page401',
    hidden: true,
    page: () => import('../pages/error/Page401.tsx'),
  },
];

/** Routes inside the layout: the open ones first, then the role-gated ones in menu order. */
export const layoutRoutes: readonly AppRoute[] = [
  {
    path: '/dashboard',
    name: 'Dashboard',
    titleKey: 'route.dashboard',
    icon: 'dashboard',
    affix: true,
    page: () => import('../pages/dashboard/DashboardPage.tsx'),
  },
  {
    path: '/profile/index',
    name: 'Profile',
    titleKey: 'route.profile',
    icon: 'user',
    hidden: true,
    noCache: true,
    page: () => import('../pages/profile/ProfilePage.tsx'),
  },
  {
    path: '/error',
    name: 'ErrorPages',
    titleKey: 'route.errorPages',
    icon: 'warning',
    hidden: true,
    redirect: '/error/404',
    children: [
      {
        path: '/error/401',
        name: 'Page401',
        titleKey: 'route.page401',
        noCache: true,
        page: () => import('../pages/error/Page401.tsx'),
      },
      {
        path: '/error/404',
        name: 'Page404',
        titleKey: 'route.page404',
        noCache: true,
        page: () => import('../pages/error/Page404.tsx'),
      },
    ],
  },
  {
    path: '/icon/index',
    name: 'Icons',
    titleKey: 'route.icons',
    icon: 'smile',
    roles: ['SuperAdmin'],
    page: () => import('../pages/icons/IconsPage.tsx'),
  },
  {
    path: '/accesscontrol',
    name: 'AccessControl',
    titleKey: 'route.accessControl',
    icon: 'access-control',
    roles: AC_ANY,
    redirect: '/accesscontrol/userManagement',
    children: [
      {
        path: '/accesscontrol/deviceRegistration',
        name: 'DeviceRegistration',
        titleKey: 'route.deviceRegistration',
        icon: 'cluster',
        roles: ['SuperAdmin'],
        page: pending('accessControl'),
      },
      {
        path: '/accesscontrol/cardRegistration',
        name: 'CardRegistration',
        titleKey: 'route.cardRegistration',
        icon: 'idcard',
        roles: ['SuperAdmin'],
        page: pending('accessControl'),
      },
      {
        path: '/accesscontrol/deviceManagement',
        name: 'DeviceManagement',
        titleKey: 'route.deviceManagement',
        icon: 'hdd',
        roles: ['AccessControl/Admin'],
        page: pending('accessControl'),
      },
      {
        path: '/accesscontrol/channelManagement',
        name: 'ChannelManagement',
        titleKey: 'route.channelManagement',
        icon: 'branches',
        roles: ['AccessControl/Admin'],
        page: pending('accessControl'),
      },
      {
        path: '/accesscontrol/userManagement',
        name: 'CardHolders',
        titleKey: 'route.cardHolders',
        icon: 'team',
        roles: AC_ANY,
        page: pending('accessControl'),
      },
      {
        path: '/accesscontrol/cardUserLinkChannel',
        name: 'AuthorizationList',
        titleKey: 'route.authorizationList',
        icon: 'unlock',
        roles: AC_ANY,
        page: pending('accessControl'),
      },
      {
        path: '/accesscontrol/doorOpeningRecords',
        name: 'DoorOpeningRecords',
        titleKey: 'route.doorOpeningRecords',
        icon: 'swap',
        roles: AC_ANY,
        page: pending('accessControl'),
      },
      {
        path: '/accesscontrol/changeRecord',
        name: 'ChangeRecords',
        titleKey: 'route.changeRecords',
        icon: 'history',
        roles: AC_ANY,
        page: pending('accessControl'),
      },
      {
        path: '/accesscontrol/renewalRecord',
        name: 'RenewalRecords',
        titleKey: 'route.renewalRecords',
        icon: 'field-time',
        roles: AC_ANY,
        page: pending('accessControl'),
      },
      {
        path: '/accesscontrol/failureDeclarationRecords',
        name: 'FaultReports',
        titleKey: 'route.faultReports',
        icon: 'tool',
        roles: AC_ANY,
        page: pending('accessControl'),
      },
    ],
  },
  {
    path: '/Bicycle',
    name: 'Garage',
    titleKey: 'route.garage',
    icon: 'car',
    roles: BIKE_ANY,
    redirect: '/Bicycle/parkArea',
    children: [
      {
        path: '/Bicycle/chargeRule',
        name: 'ChargeRules',
        titleKey: 'route.chargeRules',
        icon: 'dollar',
        roles: BIKE_ANY,
        page: pending('garage'),
      },
      {
        path: '/Bicycle/parkArea',
        name: 'ParkAreas',
        titleKey: 'route.parkAreas',
        icon: 'environment',
        roles: BIKE_ANY,
        page: pending('garage'),
      },
      {
        path: '/Bicycle/chargeEquipment',
        name: 'ChargeSockets',
        titleKey: 'route.chargeSockets',
        icon: 'api',
        roles: BIKE_ANY,
        page: pending('garage'),
      },
      {
        path: '/Bicycle/chargeRecords',
        name: 'ChargeRecords',
        titleKey: 'route.chargeRecords',
        icon: 'thunderbolt',
        roles: BIKE_ANY,
        page: pending('garage'),
      },
      {
        path: '/Bicycle/forcedOutageRecords',
        name: 'ForcedOutageRecords',
        titleKey: 'route.forcedOutageRecords',
        icon: 'poweroff',
        roles: BIKE_ANY,
        page: pending('garage'),
      },
      {
        path: '/Bicycle/parkorderRecords',
        name: 'ParkOrders',
        titleKey: 'route.parkOrders',
        icon: 'profile',
        roles: BIKE_ANY,
        page: pending('garage'),
      },
      {
        path: '/Bicycle/chargeorderRecords',
        name: 'ChargeOrders',
        titleKey: 'route.chargeOrders',
        icon: 'file-done',
        roles: BIKE_ANY,
        page: pending('garage'),
      },
      {
        path: '/Bicycle/chargeHost',
        name: 'ChargeHosts',
        titleKey: 'route.chargeHosts',
        icon: 'cloud-server',
        roles: BIKE_ANY,
        page: pending('garage'),
      },
    ],
  },
  {
    path: '/organization',
    name: 'Organization',
    titleKey: 'route.organization',
    icon: 'apartment',
    roles: ['Department/Admin', 'Department/User', 'PeopleGroup/Admin'],
    children: [
      {
        path: '/organization/department',
        name: 'Departments',
        titleKey: 'route.departments',
        icon: 'partition',
        roles: ['Department/Admin', 'Department/User'],
        page: () => import('../pages/organization/departments/DepartmentsPage.tsx'),
      },
      {
        path: '/organization/peoplegroup',
        name: 'PeopleGroups',
        titleKey: 'route.peopleGroups',
        icon: 'usergroup-add',
        roles: ['PeopleGroup/Admin'],
        page: peopleGroupPage,
      },
      {
        path: '/organization/peoplegroup',
        name: 'PeopleTypes',
        titleKey: 'route.peopleTypes',
        icon: 'tags',
        roles: ['PeopleGroup/Admin'],
        query: { kind: 'type' },
        page: peopleGroupPage,
      },
    ],
  },
  {
    path: '/usermanagement',
    name: 'SystemUsers',
    titleKey: 'route.systemUsers',
    icon: 'user-switch',
    roles: ['AppUser/Admin', 'Role/Admin', 'Resource', 'AppUser/AdminConfig'],
    children: [
      {
        path: '/usermanagement/usermanagement',
        name: 'UserAccounts',
        titleKey: 'route.userAccounts',
        icon: 'user',
        roles: ['AppUser/Admin'],
        page: () => import('../pages/system/users/UserAccountsPage.tsx'),
      },
      {
        path: '/usermanagement/role',
        name: 'Roles',
        titleKey: 'route.roles',
        icon: 'safety',
        roles: ['Role/Admin'],
        page: () => import('../pages/system/roles/RolesPage.tsx'),
      },
      {
        path: '/usermanagement/adminConfig',
        name: 'OperatorSettings',
        titleKey: 'route.operatorSettings',
        icon: 'control',
        roles: ['AppUser/AdminConfig'],
        page: () => import('../pages/system/operator-staff/OperatorSettingsPage.tsx'),
      },
    ],
  },
  {
    path: '/systemconfig',
    name: 'AreaSettings',
    titleKey: 'route.areaSettings',
    icon: 'global',
    roles: AREA_MANAGERS,
    children: [
      {
        path: '/systemconfig/areatable',
        name: 'AreaManagement',
        titleKey: 'route.areaManagement',
        icon: 'bank',
        roles: AREA_MANAGERS,
        page: () => import('../pages/system/areas/AreaManagementPage.tsx'),
      },
      {
        path: '/systemconfig/config',
        name: 'SystemSettings',
        titleKey: 'route.systemSettings',
        icon: 'setting',
        roles: ['SuperAdmin'],
        page: () => import('../pages/system/settings/SystemSettingsPage.tsx'),
      },
      {
        path: '/systemconfig/resource',
        name: 'Resources',
        titleKey: 'route.resources',
        icon: 'key',
        roles: ['SuperAdmin'],
        page: () => import('../pages/system/resources/ResourcesPage.tsx'),
      },
      {
        path: '/systemconfig/auditlog',
        name: 'AuditLog',
        titleKey: 'route.auditLog',
        icon: 'history',
        roles: ['SuperAdmin'],
        page: () => import('../pages/system/audit-log/AuditLogPage.tsx'),
      },
    ],
  },
  {
    path: '/export/log',
    name: 'ExportLog',
    titleKey: 'route.exportLog',
    icon: 'export',
    roles: ['SuperAdmin', 'Export'],
    page: () => import('../pages/system/export-log/ExportLogPage.tsx'),
  },
  {
    path: '/error-log/log',
    name: 'ErrorLog',
    titleKey: 'route.errorLog',
    icon: 'bug',
    roles: ['SuperAdmin'],
    page: () => import('../pages/error-log/ErrorLogPage.tsx'),
  },
  {
    path: '/i18n/index',
    name: 'I18n',
    titleKey: 'route.i18n',
    icon: 'translation',
    roles: ['SuperAdmin'],
    page: () => import('../pages/i18n/I18nDemoPage.tsx'),
  },
  {
    path: '/external-link',
    name: 'ExternalLink',
    titleKey: 'route.externalLink',
    icon: 'link',
    roles: ['SuperAdmin'],
    externalUrl: '/api/docs',
  },
];

/** Paths a visitor without a token may open (spec section 4); everything else goes to the login page. */
export const NO_TOKEN_WHITELIST: readonly string[] = ['/login', '/auth-redirect', '/mplogin', '/Error'];

export const HOME_PATH = '/dashboard';
