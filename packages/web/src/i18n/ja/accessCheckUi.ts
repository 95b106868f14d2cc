import type { CatalogueShape } from '@gatehouse/shared';
import type { accessCheckUi as zh } from '../zh/accessCheckUi.ts';

export const accessCheckUi: CatalogueShape<typeof zh> = {
  form: {
    card: 'カード番号',
    cardPlaceholder: 'カード番号（1～10 桁）',
    door: 'ドア',
    doorPlaceholder: 'コントローラーのドアを選択',
    at: '時刻',
    atPlaceholder: '現在',
    check: 'チェック',
    again: '再チェック',
    empty: 'カード番号を入力しドアを選ぶと、通過できる理由・拒否される理由が表示されます',
    zone: 'エリアの時刻（{{zone}}）',
  },
  side: {
    server: 'Gatehouse 側',
    controller: 'コントローラー側',
    readAt: '{{time}} にライブで読み取り',
    notRead: '未読み取り',
    failed: 'チェックに失敗しました',
  },
  disagree: {
    title: 'Gatehouse とコントローラーが一致しません',
    syncNow: '今すぐ同期',
    syncStarted: 'コントローラーを同期しています。完了後に再チェックしてください',
    adminOnly: '入退室管理の管理者はこのコントローラーを今すぐ同期できます',
  },
  who: {
    keyword: '氏名またはカード番号',
    title: '{{time}} にこのドアを通過できる人',
    titleNow: '現在このドアを通過できる人',
    held: 'その時刻このドアは常時閉です：どのカードでも通過できません',
    visitor: '来訪者',
    anyTime: '常時',
  },
  action: {
    check: '通行チェック',
  },
};
