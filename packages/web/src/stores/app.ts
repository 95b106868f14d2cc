import Cookies from 'js-cookie';
import { create } from 'zustand';
import { DEFAULT_SIZE, SIDEBAR_COOKIE, SIZE_COOKIE, SIZES, type Lang, type UiSize } from '@gatehouse/shared';
import type { Locale } from 'antd/es/locale';

export type Device = 'desktop' | 'mobile';

/** Frame state: sidebar, device, UI size and language (spec section 4, "client state"). */
interface AppState {
  /** Desktop sidebar: open by default, remembered in a cookie. */
  sidebarOpened: boolean;
  /** Mobile drawer: closed by default, closes on navigation and on resize. */
  drawerOpened: boolean;
  device: Device;
  size: UiSize;
  language: Lang;
  antdLocale: Locale | undefined;
  toggleSidebar(): void;
  setDrawer(open: boolean): void;
  setDevice(device: Device): void;
  setSize(size: UiSize): void;
  setLanguage(language: Lang, antdLocale: Locale): void;
}

function initialSize(): UiSize {
  const saved = Cookies.get(SIZE_COOKIE);
  return (SIZES as readonly string[]).includes(saved ?? '') ? (saved as UiSize) : DEFAULT_SIZE;
}

export const useAppStore = create<AppState>()((set) => ({
  sidebarOpened: Cookies.get(SIDEBAR_COOKIE) !== '0',
  drawerOpened: false,
  device: 'desktop',
  size: initialSize(),
  language: 'zh',
  antdLocale: undefined,
  toggleSidebar: () =>
    set((s) => {
      Cookies.set(SIDEBAR_COOKIE, s.sidebarOpened ? '0' : '1', { expires: 365 });
      return { sidebarOpened: !s.sidebarOpened };
    }),
  setDrawer: (drawerOpened) => set({ drawerOpened }),
  setDevice: (device) => set((s) => (s.device === device ? s : { device, drawerOpened: false })),
  setSize: (size) => {
    Cookies.set(SIZE_COOKIE, size, { expires: 365 });
    set({ size });
  },
  setLanguage: (language, antdLocale) => set({ language, antdLocale }),
}));
