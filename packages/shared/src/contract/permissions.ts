/**
 * Permission codes (the spec's role names, section 6) and the code sets that each module's routes and
 * screens ask for, declared once: the server's route `access`, the web's route table and buttons and
 * the seeded resource tree all read them from here. A set means "any one of these codes"; the built-in
 * `admin` role passes every check on both sides. Order matters: the server writes a route's set into
 * its OpenAPI description as given.
 */
export const PERMISSION_CODES = [
  'SuperAdmin',
  'AreaInfo/Admin',
  'AccessControl/Admin',
  'AccessControl/User',
  'Bicycle/Admin',
  'Bicycle/User',
  'Department/Admin',
  'Department/User',
  'PeopleGroup/Admin',
  'AppUser/Admin',
  'AppUser/AdminConfig',
  'Role/Admin',
  'Resource',
  'Export',
] as const;

export type PermissionCode = (typeof PERMISSION_CODES)[number];

/** The built-in administrator role's code: passes every check, and no other role may take it. */
export const ADMIN_CODE = 'admin';

/** A set of codes of which a caller needs any one. */
export type CodeSet = readonly PermissionCode[];

const codes = <const T extends CodeSet>(set: T): T => set;

// System administration.
export const SUPER_ADMIN = codes(['SuperAdmin']);
/** Areas: their settings and the users that may operate in them. */
export const AREA_MANAGERS = codes(['SuperAdmin', 'AreaInfo/Admin']);
/** Resource managers edit the resource tree. */
export const RESOURCE_MANAGERS = codes(['SuperAdmin', 'Resource']);
/** Role managers read the resource tree too, to assign resources to roles. */
export const RESOURCE_READERS = codes([...RESOURCE_MANAGERS, 'Role/Admin']);
export const EXPORT_MANAGERS = codes(['SuperAdmin', 'Export']);
export const APP_USER_ADMIN = codes(['AppUser/Admin']);
/** Operator staff (the people orders and fault reports are handed to). */
export const APP_USER_ADMIN_CONFIG = codes(['AppUser/AdminConfig']);
export const ROLE_ADMIN = codes(['Role/Admin']);
/** The system menu group: users, roles, resources, operator staff. */
export const USER_MANAGEMENT_MENU = codes(['AppUser/Admin', 'Role/Admin', 'Resource', 'AppUser/AdminConfig']);

// Access control (docs/access-control.md, "Permissions"): the pools are SuperAdmin's; devices, channels,
// holder import and batch grants need AccessControl/Admin; everything else is open to both codes.
export const ACCESS_CONTROL_ADMIN = codes(['AccessControl/Admin']);
export const ACCESS_CONTROL_ANY = codes(['AccessControl/Admin', 'AccessControl/User']);

// Garage (docs/garage.md): every /Bicycle screen is for both codes; configuration writes and refunds
// need the Admin code.
export const BICYCLE_ADMIN = codes(['Bicycle/Admin']);
export const BICYCLE_ANY = codes(['Bicycle/Admin', 'Bicycle/User']);

// Organization.
export const DEPARTMENT_READ = codes(['Department/Admin', 'Department/User']);
export const DEPARTMENT_WRITE = codes(['Department/Admin']);
export const PEOPLE_GROUP_ADMIN = codes(['PeopleGroup/Admin']);
/** The organization menu group: departments, people groups and types. */
export const ORGANIZATION_MENU = codes(['Department/Admin', 'Department/User', 'PeopleGroup/Admin']);

// Choices for forms of other screens (GET /api/Options/…): readable by the codes whose screens need them.
/** The department tree: department screens, user accounts, card holders. */
export const DEPARTMENT_OPTION_READERS = codes([
  'Department/Admin',
  'Department/User',
  'AppUser/Admin',
  'AccessControl/Admin',
  'AccessControl/User',
]);
/** People groups and people types: their own screen and card holders. */
export const PEOPLE_GROUP_OPTION_READERS = codes([
  'PeopleGroup/Admin',
  'AccessControl/Admin',
  'AccessControl/User',
]);
/** Roles: user accounts and roles. */
export const ROLE_OPTION_READERS = codes(['AppUser/Admin', 'Role/Admin']);
