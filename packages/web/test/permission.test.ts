import { describe, expect, it } from 'vitest';
import { filterRoutes, hasPermission } from '../src/app/permission.ts';
import { flattenRoutes, menuLeaves } from '../src/app/route-utils.ts';
import { layoutRoutes } from '../src/app/routes.tsx';
import type { AppRoute } from '../src/app/route-types.ts';

const names = (routes: readonly AppRoute[]) =>
  flattenRoutes(routes).map((chain) => chain[chain.length - 1]!.name);
const visibleMenu = (roles: string[]) =>
  menuLeaves(filterRoutes(layoutRoutes, roles)).map((chain) => chain.map((r) => r.name).join('/'));

describe('hasPermission', () => {
  it('lets anyone into a route without roles', () => {
    expect(hasPermission([], {})).toBe(true);
  });
  it('needs any one of the route roles', () => {
    expect(hasPermission(['Export'], { roles: ['SuperAdmin', 'Export'] })).toBe(true);
    expect(hasPermission(['AppUser/Admin'], { roles: ['SuperAdmin', 'Export'] })).toBe(false);
  });
});

describe('filterRoutes', () => {
  const table: AppRoute[] = [
    { path: '/open', name: 'Open', titleKey: 'route.dashboard' },
    {
      path: '/group',
      name: 'Group',
      titleKey: 'route.organization',
      roles: ['Department/Admin', 'PeopleGroup/Admin'],
      children: [
        { path: '/group/a', name: 'A', titleKey: 'route.departments', roles: ['Department/Admin'] },
        { path: '/group/b', name: 'B', titleKey: 'route.peopleGroups', roles: ['PeopleGroup/Admin'] },
        { path: '/group/c', name: 'C', titleKey: 'route.peopleTypes' },
      ],
    },
    {
      path: '/empty',
      name: 'Empty',
      titleKey: 'route.systemUsers',
      roles: ['Resource'],
      children: [{ path: '/empty/x', name: 'X', titleKey: 'route.roles', roles: ['Role/Admin'] }],
    },
  ];

  it('gives admin every route, whatever its roles', () => {
    expect(names(filterRoutes(table, ['admin']))).toEqual(['Open', 'Group', 'A', 'B', 'C', 'Empty', 'X']);
  });

  it('filters children too: any one role of each child', () => {
    expect(names(filterRoutes(table, ['Department/Admin']))).toEqual(['Open', 'Group', 'A', 'C']);
    expect(names(filterRoutes(table, ['PeopleGroup/Admin']))).toEqual(['Open', 'Group', 'B', 'C']);
  });

  it('drops a parent the user may not open, with its open children', () => {
    expect(names(filterRoutes(table, ['Export']))).toEqual(['Open']);
  });

  it('drops a permitted parent whose children are all forbidden', () => {
    expect(names(filterRoutes(table, ['Resource']))).toEqual(['Open']);
  });

  it('treats SuperAdmin as an ordinary code, not as admin', () => {
    expect(names(filterRoutes(table, ['SuperAdmin']))).toEqual(['Open']);
  });

  it('does not change the table it filters', () => {
    const before = JSON.stringify(table);
    filterRoutes(table, ['Department/Admin']);
    expect(JSON.stringify(table)).toBe(before);
  });
});

describe('the route table under the spec roles (section 2)', () => {
  it('gives each demo code exactly its menu entries', () => {
    expect(visibleMenu(['SuperAdmin'])).toEqual([
      'Dashboard',
      'Icons',
      'AreaSettings/AreaManagement',
      'AreaSettings/SystemSettings',
      'AreaSettings/Resources',
      'AreaSettings/AuditLog',
      'AreaSettings/ApiKeys',
      'AreaSettings/Webhooks',
      'ExportLog',
      'ErrorLog',
      'I18n',
      'ExternalLink',
    ]);
    expect(visibleMenu(['AccessControl/User'])).toEqual([
      'Dashboard',
      'AccessControl/CardHolders',
      'AccessControl/AuthorizationList',
      'AccessControl/DoorOpeningRecords',
      'AccessControl/ChangeRecords',
      'AccessControl/RenewalRecords',
      'AccessControl/FaultReports',
      'AccessControl/DoorMonitor',
      'AccessControl/DoorAlarms',
      'AccessControl/TimeProfiles',
      'AccessControl/Holidays',
      'AccessControl/DoorSchedules',
      'AccessControl/VisitorPasses',
      'AccessControl/VisitorLog',
      'AccessControl/Muster',
      'AccessControl/AccessCheck',
    ]);
    expect(visibleMenu(['AccessControl/Admin'])).toEqual([
      'Dashboard',
      'AccessControl/DeviceManagement',
      'AccessControl/ChannelManagement',
      'AccessControl/CardHolders',
      'AccessControl/AuthorizationList',
      'AccessControl/DoorOpeningRecords',
      'AccessControl/ChangeRecords',
      'AccessControl/RenewalRecords',
      'AccessControl/FaultReports',
      'AccessControl/DoorMonitor',
      'AccessControl/DoorAlarms',
      'AccessControl/TimeProfiles',
      'AccessControl/Holidays',
      'AccessControl/DoorSchedules',
      'AccessControl/VisitorPasses',
      'AccessControl/VisitorLog',
      'AccessControl/Muster',
      'AccessControl/AccessCheck',
    ]);
    expect(visibleMenu(['Bicycle/User'])).toEqual([
      'Dashboard',
      'Garage/ChargeRules',
      'Garage/ParkAreas',
      'Garage/ChargeSockets',
      'Garage/ChargeRecords',
      'Garage/ForcedOutageRecords',
      'Garage/ParkOrders',
      'Garage/ChargeOrders',
      'Garage/ChargeHosts',
    ]);
    expect(visibleMenu(['Department/User'])).toEqual(['Dashboard', 'Organization/Departments']);
    expect(visibleMenu(['PeopleGroup/Admin'])).toEqual([
      'Dashboard',
      'Organization/PeopleGroups',
      'Organization/PeopleTypes',
    ]);
    expect(visibleMenu(['AppUser/Admin'])).toEqual(['Dashboard', 'SystemUsers/UserAccounts']);
    expect(visibleMenu(['Role/Admin'])).toEqual(['Dashboard', 'SystemUsers/Roles']);
    expect(visibleMenu(['AppUser/AdminConfig'])).toEqual(['Dashboard', 'SystemUsers/OperatorSettings']);
    expect(visibleMenu(['AreaInfo/Admin'])).toEqual(['Dashboard', 'AreaSettings/AreaManagement']);
    expect(visibleMenu(['Export'])).toEqual(['Dashboard', 'ExportLog']);
    expect(visibleMenu(['Resource'])).toEqual(['Dashboard']);
  });

  it('needs an access-control role before the SuperAdmin-only registration screens show', () => {
    expect(visibleMenu(['SuperAdmin', 'AccessControl/User'])).toEqual(
      expect.arrayContaining(['AccessControl/DeviceRegistration', 'AccessControl/CardRegistration']),
    );
    expect(visibleMenu(['SuperAdmin']).some((n) => n.startsWith('AccessControl'))).toBe(false);
  });

  it('shows admin every business screen', () => {
    const all = visibleMenu(['admin']);
    // The spec's screens plus the operation log (SuperAdmin, under area settings; docs/web-shell.md), the
    // access rules' five (door monitor, door alarms, time profiles, holidays, door schedules; issue 22) and
    // the API keys and webhooks (SuperAdmin, under area settings; issue 29), and visitor passes with their log
    // and the access check, and who is inside with its roll calls (issue 31).
    expect(all).toHaveLength(1 + 1 + 15 + 8 + 3 + 3 + 6 + 4 + 2 + 1 + 1);
  });
});
