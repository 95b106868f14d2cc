export const navbar = {
  toggleSidebar: 'サイドバーの開閉',
  dashboard: 'ダッシュボード',
  profile: 'プロフィール',
  logOut: 'ログアウト',
  size: 'サイズ',
  language: '言語',
  fullscreen: '全画面',
  exitFullscreen: '全画面を終了',
  errorLog: 'エラーログ',
  search: 'メニュー検索',
  searchPlaceholder: 'メニュー名、ピンインまたはパス',
  noMatch: '一致するメニューはありません',
};

export const size = {
  default: 'デフォルト',
  medium: '中',
  small: '小',
  mini: 'ミニ',
};

export const tagsView = {
  refresh: '更新',
  close: '閉じる',
  closeOthers: '他を閉じる',
  closeAll: 'すべて閉じる',
};

export const settings = {
  open: 'レイアウト設定',
  title: 'レイアウト設定',
  theme: 'テーマカラー',
  tagsView: 'タブを表示',
  fixedHeader: 'ヘッダーを固定',
  sidebarLogo: 'サイドバーのロゴ',
  pinyinSearch: 'メニュー検索でピンイン',
};

export const errorLog = {
  title: 'エラーログ',
  clearAll: 'すべてクリア',
  empty: 'エラーはありません',
  message: 'メッセージ',
  component: 'コンポーネント',
  info: '詳細',
  url: 'URL',
  stack: 'スタック',
  time: '時刻',
  fallback: 'このページでエラーが発生しました：{{message}}',
};
