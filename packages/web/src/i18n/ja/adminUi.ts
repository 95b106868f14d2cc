import type { CatalogueShape } from '@gatehouse/shared';
import type { adminUi as zh } from '../zh/adminUi.ts';

export const adminUi: CatalogueShape<typeof zh> = {
  keyword: 'キーワード',
  userKeyword: 'ユーザー名・氏名・電話番号',
  staffKeyword: '氏名・電話番号・メール',
  exportKeyword: 'タイトル・データ・操作者',
  passwordRule: '8～64 文字',
  areasHint: '現在のエリアは常に含まれます。自分が操作できるエリアのみ割り当てられます',
  resetPassword: 'パスワード再設定',
  passwordReset: 'パスワードを再設定しました。ユーザーは再ログインが必要です',
  builtIn: '組み込み',
  resourceCount: 'リソース数',
  roleCodeRule: '英字で始まり、英数字と / _ - を使用。作成後は変更不可',
  assignResources: 'リソース割り当て',
  areaUsers: '権限ユーザー',
  customHint: 'JSON オブジェクト（例：住所、連絡先、timezone）',
  settingsSaved: '設定を保存し、反映しました',
  siteTitleHint: '空欄の場合は既定のタイトルを使用します',
  between: '{{min}}～{{max}}',
  addChild: '下位を追加',
  ownMembers: '所属人数',
  totalMembers: '下位を含む人数',
  topLevel: '最上位',
  download: 'ダウンロード',
  changedFields: '変更項目',
};
