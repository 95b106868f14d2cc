import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { DEFAULT_SETTINGS } from '@gatehouse/shared';

/** Layout settings of the settings panel (spec section 3, "Settings"); kept in local storage. */
export interface Settings {
  theme: string;
  showSettings: boolean;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  supportPinyinSearch: boolean;
}

interface SettingsState extends Settings {
  change<K extends keyof Settings>(key: K, value: Settings[K]): void;
}

export const SETTINGS_STORAGE_KEY = 'gatehouse-settings';

export const useSettingsStore = create<SettingsState>()(
  persist(
    (set) => ({
      ...DEFAULT_SETTINGS,
      change: (key, value) => set({ [key]: value } as Partial<Settings>),
    }),
    { name: SETTINGS_STORAGE_KEY, version: 1 },
  ),
);
