export const navbar = {
  toggleSidebar: 'Toggle sidebar',
  dashboard: 'Dashboard',
  profile: 'Profile',
  logOut: 'Log Out',
  size: 'Global Size',
  language: 'Language',
  fullscreen: 'Full screen',
  exitFullscreen: 'Exit full screen',
  errorLog: 'Error log',
  search: 'Search menus',
  searchPlaceholder: 'Menu title, pinyin or path',
  noMatch: 'No matching menu',
};

export const size = {
  default: 'Default',
  medium: 'Medium',
  small: 'Small',
  mini: 'Mini',
};

export const tagsView = {
  refresh: 'Refresh',
  close: 'Close',
  closeOthers: 'Close Others',
  closeAll: 'Close All',
};

export const settings = {
  open: 'Page style setting',
  title: 'Page style setting',
  theme: 'Theme Color',
  tagsView: 'Open Tags-View',
  fixedHeader: 'Fixed Header',
  sidebarLogo: 'Sidebar Logo',
  pinyinSearch: 'Pinyin in menu search',
};

export const errorLog = {
  title: 'Error Log',
  clearAll: 'Clear All',
  empty: 'No errors',
  message: 'Msg',
  component: 'Component',
  info: 'Info',
  url: 'URL',
  stack: 'Stack',
  time: 'Time',
  fallback: 'This page failed: {{message}}',
};
