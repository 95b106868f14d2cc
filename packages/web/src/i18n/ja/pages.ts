export const login = {
  title: 'システムログイン',
  username: 'ユーザー名',
  password: 'パスワード',
  logIn: 'ログイン',
  showPassword: 'パスワードを表示',
  hidePassword: 'パスワードを隠す',
  thirdparty: '外部アカウントでログイン',
  thirdpartyTips:
    '外部アカウントでのログインはまだ実装されていません。ユーザー名とパスワードでログインしてください。',
  usernameRequired: 'ユーザー名を入力してください',
  passwordRequired: 'パスワードを入力してください',
  capsLock: 'Caps Lock がオンです',
};

export const authRedirect = {
  text: 'ログインページに戻っています…',
};

export const dashboard = {
  welcome: 'おかえりなさい、{{name}} さん',
  intro: '左のメニューから業務を選んでください。上部バーでエリア、言語、サイズを切り替えられます。',
  currentArea: '現在のエリア',
  noArea: 'エリアが割り当てられていません',
  areaName: 'エリア名',
  address: '住所',
  contact: '連絡先電話',
  timezone: 'タイムゾーン',
  roles: '権限',
  quickLinks: 'クイックリンク',
  noQuickLinks: '利用できる業務メニューはありません',
  latestEvents: '最新イベント',
  noEvents: '過去 24 時間にカード操作や扉イベントはありません',
  allEvents: 'すべての記録',
};

export const profile = {
  title: 'プロフィール',
  account: 'アカウント情報',
  userName: 'ユーザー名',
  name: '氏名',
  avatar: 'アバターのパス',
  avatarHint: '画像サーバーのアドレスからの相対パス：{{base}}',
  save: 'プロフィールを保存',
  saved: 'プロフィールを保存しました',
  password: 'パスワード変更',
  oldPassword: '現在のパスワード',
  newPassword: '新しいパスワード',
  confirmPassword: '新しいパスワード（確認）',
  passwordMismatch: '2 つのパスワードが一致しません',
  changePassword: 'パスワードを変更',
  passwordChanged: 'パスワードを変更しました',
};

export const errorPage = {
  title401: 'アクセス権限がありません',
  text401: 'このページを開く権限がありません。管理者に連絡するか、ホームに戻ってください。',
  title404: 'ページが見つかりません',
  text404: 'お探しのページは存在しないか、削除されました。アドレスを確認してください。',
  home: 'ホームに戻る',
  back: '前のページに戻る',
};

export const errorLogPage = {
  intro: '実行時のエラーは上部バーのエラーログに集められます。虫のアイコンをクリックすると確認できます。',
  renderError: '描画エラーを発生させる',
  eventError: 'イベントエラーを発生させる',
  open: 'エラーログを開く',
  count: '{{count}} 件のエラーを収集しました',
};

export const i18nDemo = {
  title: '国際化デモ',
  intro: '言語を切り替えると、文言、日付、コンポーネントがその言語で表示されます。',
  language: '現在の言語',
  date: '日付選択',
  pagination: 'ページネーション',
  empty: '空の状態',
  confirm: '確認',
  confirmText: 'この操作を実行しますか？',
  interpolation: '補間の例：こんにちは、{{name}} さん！',
  today: '今日は {{date}} です',
};

export const icons = {
  title: 'アイコン',
  intro: 'アイコンをクリックするとコンポーネントのコードをコピーします。',
  filter: '名前で絞り込む',
};
