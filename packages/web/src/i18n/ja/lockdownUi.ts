import type { CatalogueShape } from '@gatehouse/shared';
import type { lockdownUi as zh } from '../zh/lockdownUi.ts';

export const lockdownUi: CatalogueShape<typeof zh> = {
  mode: {
    lockdown: '封鎖',
    evacuate: '避難',
  },
  banner: {
    lockdown: 'このエリアは封鎖中です：全ドア常時閉、どのカードでも開きません',
    evacuate: 'このエリアは避難中です：全ドア常時開',
    detail: '{{time}} から、{{who}} による：{{reason}}',
    confirmed: 'コントローラー確認済みのドア {{confirmed}}/{{total}}',
    open: 'ドアモニター',
  },
  panel: {
    title: '封鎖と避難',
    none: 'このエリアは封鎖も避難もしていません',
    start: '封鎖または避難…',
    release: '解除…',
    restoring: '{{time}} に解除、各ドアを元のモードに戻しています：{{confirmed}}/{{total}}',
  },
  startDialog: {
    title: 'このエリアを封鎖または避難',
    lockdownHelp: '封鎖：全ドア常時閉、どのカードでも開かず、ドアスケジュールは停止',
    evacuateHelp: '避難：全ドア常時開、ドアスケジュールは停止',
    reason: '理由',
    reasonPlaceholder: '必須：理由（操作ログに記録され、外部システムに通知されます）',
    confirm: '実行',
    started: '送信しました。各ドアはコントローラーの確認後に表示されます',
  },
  releaseDialog: {
    title: '封鎖または避難の解除',
    help: '各ドアは自身のモード、遅延、ドアスケジュールに戻ります',
    note: '解除メモ',
    notePlaceholder: '必須：解除の理由または対応内容',
    confirm: '解除',
    released: '解除しました。各ドアを元のモードに戻しています',
  },
  door: {
    pending: 'コントローラーの確認待ち',
    held: '確認済み {{mode}}',
    restoring: '復帰中',
    restored: '復帰 {{mode}}',
    unreached: 'コントローラー応答なし：変更なし',
  },
};
