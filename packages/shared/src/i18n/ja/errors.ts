import type { errors as zh } from '../zh/errors.ts';

export const errors: Record<keyof typeof zh, string> = {
  badRequest: 'リクエストが正しくありません',
  validation: '入力内容に誤りがあります',
  unauthorized: 'ログインの有効期限が切れました。再度ログインしてください',
  forbidden: 'この操作を行う権限がありません',
  areaForbidden: 'このエリアを操作する権限がありません',
  areaRequired: '先にエリアを選択してください',
  notFound: 'データが存在しないか、削除されています',
  routeNotFound: 'API が存在しません',
  conflict: 'データが変更されています。更新してからやり直してください',
  internal: 'サーバー内部エラーです。しばらくしてから再試行してください',
  loginFailed: 'ユーザー名またはパスワードが正しくありません',
  loginThrottled: 'ログインの失敗が多すぎます。{{minutes}} 分後に再試行してください',
  accountDisabled: 'このアカウントは無効です。管理者に連絡してください',
  oldPasswordWrong: '現在のパスワードが正しくありません',
  invalidJson: '有効な JSON ではありません',
  userNameTaken: 'このユーザー名は既に使われています',
  areaNameTaken: '同じ名前のエリアが既に存在します',
  areaDisabled: 'このエリアは無効です',
  builtInAdmin: '組み込み管理者は無効化・削除できません',
  ownAccountOnly: '自分のアカウントのみ変更できます',
};
