export const app = {
  siteTitle: 'バックエンド管理システム',
  sidebarTitle: '管理システム',
  loading: '読み込み中…',
};

export const ui = {
  ok: 'OK',
  cancel: 'キャンセル',
  save: '保存',
  close: '閉じる',
  back: '戻る',
  retry: '再試行',
  copy: 'コピー',
  copied: 'コピーしました：{{text}}',
  search: '検索',
  none: 'なし',
  yes: 'はい',
  no: 'いいえ',
};

export const request = {
  logoutTitle: 'ログアウトのお知らせ',
  logoutMessage: 'ログインの有効期限が切れました。再度ログインしますか？',
  relogin: '再ログイン',
  cancel: 'キャンセル',
  genericError: 'エラーが発生しました',
  requestError: 'リクエストエラー',
};

export const session = {
  verificationFailed: '認証に失敗しました。再度ログインしてください。',
  rolesRequired: 'info: ロールは空でない配列である必要があります！',
};

export const area = {
  switch: 'エリア切替',
  placeholder: 'エリアを選択',
  noArea: '現在のユーザーには操作できるエリアがありません。管理者に連絡してください',
  queryFailed: 'エリア情報の取得に失敗しました',
  switched: '{{name}} に切り替えました',
};

export const message = {
  switchLanguageSuccess: '言語を切り替えました',
  switchSizeSuccess: 'サイズを切り替えました',
  fullscreenUnsupported: 'お使いのブラウザは全画面表示に対応していません',
};
