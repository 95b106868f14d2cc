/** Business constants of the spec (section 9), shared by server and web. */

export const TOKEN_COOKIE = 'REToken';
export const AREA_STORAGE_KEY = 'Aid';
export const LANGUAGE_COOKIE = 'language';
export const SIDEBAR_COOKIE = 'sidebarStatus';
export const SIZE_COOKIE = 'size';

export const MOBILE_BREAKPOINT = 992;
export const SIDEBAR_WIDTH = 210;
export const SIDEBAR_COLLAPSED_WIDTH = 54;

export const DEFAULT_THEME = '#1890ff';
export const THEME_PRESETS = [
  '#409EFF',
  '#1890ff',
  '#304156',
  '#212121',
  '#11a983',
  '#13c2c2',
  '#6959CD',
  '#f5222d',
] as const;
export const MENU_COLORS = { text: '#bfcbd9', active: '#409eff', background: '#304156' } as const;

/** Site title and sidebar title are catalogue keys (translated); these are the Chinese defaults. */
export const SITE_TITLE = '后台管理系统';
export const SIDEBAR_TITLE = '管理系统';
export const LOGO_PATH = '/logo.jpg';

export const CARD_NUMBER_MIN_LENGTH = 2;
export const CARD_NUMBER_MAX_LENGTH = 10;
export const CHINESE_NAME_MIN_LENGTH = 2;
export const CHINESE_NAME_MAX_LENGTH = 6;

export const SEARCH_THRESHOLD = 0.4;
export const SEARCH_WEIGHTS = { title: 0.7, pinyin: 0.3, path: 0.3 } as const;

export const SIZES = ['default', 'medium', 'small', 'mini'] as const;
export type UiSize = (typeof SIZES)[number];
export const DEFAULT_SIZE: UiSize = 'medium';

export const SETTINGS_BUTTON_TOP = 90;
export const TAB_MENU_WIDTH = 105;

export const EXPORT_MAX_ROWS = 3000;
export const MAX_DAY_SPAN = 61;

export const REQUEST_TIMEOUT_MS = 60_000;
export const ERROR_TOAST_SECONDS = 3;
export const NETWORK_ERROR_TOAST_SECONDS = 5;

export const RANDOM_CODE_DEFAULT_DIGITS = 3;
export const DEFAULT_DATE_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

/** Default UI settings (spec section 3, Settings). */
export const DEFAULT_SETTINGS = {
  theme: DEFAULT_THEME,
  showSettings: true,
  tagsView: true,
  fixedHeader: false,
  sidebarLogo: false,
  supportPinyinSearch: true,
} as const;
