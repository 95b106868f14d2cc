import type { CatalogueShape } from '@gatehouse/shared';
import type { webhookUi as zh } from '../zh/webhookUi.ts';

export const webhookUi: CatalogueShape<typeof zh> = {
  keyword: 'URL または作成者',
  state: {
    active: '配信中',
    disabled: '無効',
    failing: '失敗続きのため無効',
  },
  field: {
    Url: 'URL',
    State: '状態',
    AreaIds: 'エリア',
    Events: 'イベント',
    Pending: '待機中',
    FailingSince: '失敗開始',
    CreatedByName: '作成者',
    CreatedAt: '作成日時',
    Disabled: '無効',
  },
  urlHint:
    'イベントはこの URL に POST されます。プライベート、ループバック、リンクローカルのアドレスには WEBHOOK_ALLOW_NETWORKS での許可が必要です',
  disabledHint:
    '無効にすると新しいイベントは配信されません。1 日失敗し続けると自動で無効になり、有効に戻すと待機分を再試行します',
  rotate: 'シークレットを再発行',
  confirmRotate:
    '署名シークレットを再発行しますか？古いシークレットはすぐに無効になり、受信側は新しいシークレットで検証する必要があります。',
  secretTitle: 'Webhook 署名シークレット',
  secretWarning:
    'このシークレットを今すぐコピーして安全に保管してください。表示はこの一度だけで、ダイアログを閉じると再表示できません。紛失した場合は再発行してください。',
  secretUse: '受信側はこれで webhook-signature ヘッダーを検証します（Standard Webhooks）',
  copyFailed: '自動でコピーできませんでした。シークレットを選択して手動でコピーしてください',
  secretDone: 'シークレットを保存しました',
};
