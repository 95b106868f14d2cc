import type { CatalogueShape } from '@gatehouse/shared';
import type { adminUi as zh } from '../zh/adminUi.ts';

export const adminUi: CatalogueShape<typeof zh> = {
  keyword: 'Keyword',
  userKeyword: 'User name, name or phone',
  staffKeyword: 'Name, phone or e-mail',
  exportKeyword: 'Title, data or operator',
  passwordRule: '8 to 64 characters',
  areasHint: 'The current area is always included; you can only grant areas you operate',
  resetPassword: 'Reset password',
  passwordReset: 'Password reset; the user must sign in again',
  builtIn: 'Built-in',
  resourceCount: 'Resources',
  roleCodeRule: 'Starts with a letter; letters, digits and / _ -; cannot change later',
  assignResources: 'Assign resources',
  areaUsers: 'Authorised users',
  customHint: 'A JSON object, e.g. address, contact and timezone',
  settingsSaved: 'Settings saved and in effect',
  siteTitleHint: 'Leave empty for the default title',
  between: '{{min}} to {{max}}',
  addChild: 'Add child',
  ownMembers: 'Own members',
  totalMembers: 'Including sub-units',
  topLevel: 'Top level',
  download: 'Download',
  changedFields: 'Changed fields',
};
