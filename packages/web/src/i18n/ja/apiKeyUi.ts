import type { CatalogueShape } from '@gatehouse/shared';
import type { apiKeyUi as zh } from '../zh/apiKeyUi.ts';

export const apiKeyUi: CatalogueShape<typeof zh> = {
  keyword: '名前、プレフィックスまたは作成者',
  state: {
    active: '有効',
    expired: '期限切れ',
    revoked: '失効',
  },
  revoke: '失効させる',
  confirmRevoke: 'この API キーを失効させますか？使用中のシステムは直ちに拒否され、元に戻せません。',
  revoked: '失効しました。どのサーバーもこのキーを受け付けません',
  never: '未使用',
  noExpiry: '無期限',
  codesHint: 'ご自身が持つ権限コードのみ付与できます',
  areasHint: 'キーはこれらのエリアのみにアクセスできます。操作可能なエリアのみ選択できます',
  expiresHint: '空欄の場合は無期限です。この日時以降のリクエストは拒否されます',
  secretTitle: 'API キーを作成しました',
  secretWarning:
    'このキーを今すぐコピーして安全に保管してください。表示されるのは今回だけで、このダイアログを閉じると再表示できません。紛失した場合は失効させて新しいキーを作成してください。',
  secretUse: '各リクエストのヘッダーに付けて送信します：Authorization: Bearer <キー>',
  copy: 'コピー',
  copied: 'クリップボードにコピーしました',
  copyFailed: '自動でコピーできませんでした。キーを選択して手動でコピーしてください',
  secretDone: 'キーを保存しました',
  lastUsed: '{{time}}（{{address}} から）',
};
