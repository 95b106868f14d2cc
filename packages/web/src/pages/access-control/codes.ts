/**
 * Who may do what on the access-control screens (docs/access-control.md, "Permissions"): the pools are
 * SuperAdmin's; devices, channels, holder import and batch grants need AccessControl/Admin; everything else
 * is open to both codes. The server checks the same codes again.
 */
export const SUPER = ['SuperAdmin'] as const;
export const AC_ADMIN = ['AccessControl/Admin'] as const;
export const AC_ANY = ['AccessControl/Admin', 'AccessControl/User'] as const;
