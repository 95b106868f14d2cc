import type { CatalogueShape } from '@gatehouse/shared';
import type { list as zh } from '../zh/list.ts';

export const list: CatalogueShape<typeof zh> = {
  choose: '選択してください',
  enter: '入力してください',
  search: '検索',
  reset: 'リセット',
  create: '追加',
  edit: '編集',
  delete: '削除',
  batchDelete: '一括削除',
  confirmDelete: 'このデータを削除しますか？',
  confirmBatchDelete: '選択した {{count}} 件を削除しますか？',
  confirm: 'OK',
  cancel: 'キャンセル',
  save: '保存',
  saved: '保存しました',
  created: '追加しました',
  deleted: '{{count}} 件削除しました',
  actions: '操作',
  export: 'エクスポート',
  exportDone: 'エクスポート完了：{{rows}} 行',
  exportFailed: 'エクスポートに失敗しました',
  exportContinues: 'エクスポートは処理中です。完了後にエクスポート管理からダウンロードできます',
  total: '全 {{total}} 件',
  loadFailed: '読み込みに失敗しました。再試行してください',
  maxDays: '最長 {{days}} 日まで選択できます',
};
