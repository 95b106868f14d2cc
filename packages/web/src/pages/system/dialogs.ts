import type { AppUserItem, AreaInfoItem, RoleItem } from '@gatehouse/shared';
import { dialogStore } from '../../components/dialog-store.ts';

/** The system screens' dialogs opened from list rows, and the row each is open on. */
export interface SystemDialogs {
  resetPassword: AppUserItem;
  areaUsers: AreaInfoItem;
  roleResources: RoleItem;
}

export const systemDialogs = dialogStore<SystemDialogs>(['resetPassword', 'areaUsers', 'roleResources']);
