import type { CatalogueShape } from '../catalogues.ts';
import type { accessCheck as zh } from '../zh/accessCheck.ts';

export const accessCheck: CatalogueShape<typeof zh> = {
  title: {
    check: '通行チェック',
    who: '通行できる人',
  },
  step: {
    card: 'カード登録',
    holder: 'カード所有者',
    authorisation: 'ドアの権限',
    validity: '有効期間',
    timeProfile: 'タイムプロファイル',
    lockdown: '封鎖と避難',
    schedule: 'ドアスケジュール',
    doorMode: 'ドアモード',
    interlock: 'インターロック',
    antiPassback: 'アンチパスバック',
  },
  controllerStep: {
    reach: 'コントローラーの読み取り',
    card: 'コントローラー上のカード',
    dates: 'コントローラー上の日付',
    doorValue: 'ドアの権限値',
    profile: 'コントローラー上のタイムプロファイル',
    doorMode: 'コントローラーのドアモード',
    clock: 'コントローラーの時計',
    lastRefusal: '直近の拒否',
  },
  verdict: {
    pass: '通過',
    refuse: '拒否',
    warn: '注意',
    unknown: '不明',
  },
  value: {
    none: '権限なし',
    any: '常時',
    profile: 'タイムプロファイル {{slot}}',
  },
  summary: {
    server_pass: 'Gatehouse の規則では、カード {{card}} は {{time}} に {{door}} を通過できます',
    server_refuse: 'Gatehouse の規則では、カード {{card}} は {{time}} に {{door}} で拒否されます：{{why}}',
    server_warn:
      'Gatehouse の規則では、カード {{card}} は {{time}} に {{door}} を通過できますが、注意があります：{{why}}',
    server_unknown:
      'Gatehouse の規則では、カード {{card}} が {{time}} に {{door}} を通過できるか判断できません：{{why}}',
    controller_pass: 'コントローラー {{device}} は解錠します',
    controller_refuse: 'コントローラー {{device}} は拒否します：{{why}}',
    controller_warn: 'コントローラー {{device}} は解錠しますが、注意があります：{{why}}',
    controller_unknown: 'コントローラー {{device}} 側は不明です：{{why}}',
  },
  finding: {
    cardRegistered: 'カード {{card}} はこのエリアに登録されています',
    cardNotRegistered:
      'カード {{card}} はこのエリアに登録されていません：コントローラーはこのカードを知りません',
    cardNotHeld: 'カードは登録されていますが、所有者に発行されていません',
    holderEnabled: '所有者 {{holder}}、有効',
    holderDisabled: '所有者 {{holder}} は無効化されています',
    passValid: '{{visitor}} の来訪者パス（訪問先 {{host}}）、有効',
    passEnded: '{{visitor}} の来訪者パス（訪問先 {{host}}）は終了しています',
    noGrant: '{{holder}} にはこのドアの権限がありません',
    granted: '{{channel}} に権限あり（{{status}}）',
    grantedOtherReader:
      'このドアのもう一方のリーダー {{channel}} に権限あり（{{status}}）：コントローラーは両側からドアを開けます',
    grantPending: '{{channel}} に権限ありですが、まだコントローラーに書き込まれていません（{{status}}）',
    grantWithdrawn: '{{channel}} の権限はコントローラーから削除中です（{{status}}）',
    grantRevoked: '{{channel}} の権限は取り消されました',
    valid: '有効期間 {{from}} ～ {{to}}',
    validDatesOnly:
      '有効期間（{{from}} ～ {{to}}）外ですが、コントローラーは日付のみを保持するため（{{cfrom}} ～ {{cto}}）、{{date}} はまだ解錠します',
    notYetValid: '{{from}} より前は有効ではありません',
    expired: '有効期間は {{to}} に終了しました',
    anyTime: 'タイムプロファイルなし：常時',
    inProfile: '{{time}} はタイムプロファイル「{{profile}}」の範囲内です',
    inLinkedProfile: '{{time}} はタイムプロファイル「{{profile}}」からリンクされた「{{by}}」の範囲内です',
    outsideProfile: '{{time}} はタイムプロファイル「{{profile}}」の範囲外です',
    holidayProfile:
      '{{time}} はタイムプロファイル「{{profile}}」の範囲外です：{{date}} は祝日「{{holiday}}」です',
    profileMissing:
      'タイムプロファイル「{{profile}}」はもう存在しません：コントローラーはこのカードに権限を与えません',
    noLockdown: 'その時刻に封鎖・避難はありません',
    lockedDown: 'このエリアは {{since}} から封鎖中です：すべてのドアが常時閉、カードでは開きません',
    evacuated: 'このエリアは {{since}} から避難中です：すべてのドアが常時開',
    schedulePaused: '封鎖・避難の間、ドアスケジュールは停止します',
    noSchedule: 'その時刻にこのドアのモードを設定するドアスケジュールはありません',
    scheduleMode: 'その時刻、ドアスケジュールがこのドアを「{{mode}}」にしていました',
    modeOverridden: '手動設定は「{{mode}}」；その時刻は封鎖またはスケジュールが決めます',
    mode1: 'ドアモード：{{mode}}：ドアはいずれにせよ解錠されています',
    mode2: 'ドアモード：{{mode}}：どのカードでも開きません',
    mode3: 'ドアモード：{{mode}}',
    interlockOff: 'インターロックは無効です',
    interlockOther: 'インターロック（{{mode}}）はこのドアを含みません',
    interlockOn: 'インターロック（{{mode}}）：ドア {{doors}} が開いている間は拒否されます',
    antiPassbackOff: 'アンチパスバックは無効です',
    antiPassbackNoPassage:
      'アンチパスバック（{{mode}}）：このコントローラーでのこのカードの通行記録はありません',
    antiPassbackOn:
      'アンチパスバック（{{mode}}）：前回 {{time}} に {{channel}} を通行；反対側を通るまで同じ側では拒否されます',
    reach_read: 'コントローラー {{device}} がたった今応答しました',
    reach_offline: 'コントローラー {{device}} はオフラインで応答しません：現在その内容を読み取れません',
    reach_timeout: 'コントローラー {{device}} が応答しませんでした：現在その内容を読み取れません',
    reach_refused: 'コントローラー {{device}} は読み取りを拒否しました',
    reach_notDriven:
      '現在コントローラー {{device}} を管理するインスタンスがありません（インスタンス間で引き継ぎ中）：数秒後に再試行してください',
    reach_noAddress: 'コントローラー {{device}} には IP アドレスがありません：接続できません',
    reach_gatewayOff:
      'このサーバーではコントローラーゲートウェイが動作していません：コントローラーを読み取れません',
    reach_notWg: '{{device}} は他社製ゲートで、自らカードを判定します：Gatehouse は管理しません',
    reach_disabled: 'コントローラー {{device}} は無効です：Gatehouse は管理しません',
    reach_noDoor: 'このチャネルはドアを指定していません：コントローラーで読み取るものはありません',
    ctlHoldsCard: 'カード {{card}} を保持しています',
    ctlLacksCard: 'カード {{card}} を保持していません：拒否します（権限なし）',
    ctlDatesIn: 'このカードの日付は {{from}} ～ {{to}}：{{date}} は範囲内です',
    ctlDatesOut: 'このカードの日付は {{from}} ～ {{to}}：{{date}} は範囲外です',
    ctlDoorNone: 'ドア {{door}}：{{value}}',
    ctlDoorValue: 'ドア {{door}}：{{value}}',
    ctlProfileMissing:
      'タイムプロファイル {{slot}} がありません：その場合コントローラーはカードを常時通します',
    ctlInProfile: 'タイムプロファイル {{slot}} は {{time}} を含みます',
    ctlOutsideProfile: 'タイムプロファイル {{slot}} は {{time}} を含みません',
    ctlMode: 'ドアモード：{{mode}}',
    ctlClosed: 'ドアモード：{{mode}}：どのカードでも開きません',
    ctlModeNow: '現在のドアモードは「{{mode}}」です（他の時刻のモードは分かりません）',
    ctlClockUnknown: '時計を読み取れませんでした',
    ctlClockRight: '時計は正確です（ずれ {{drift}} 秒）',
    ctlClockOff: '時計が {{drift}} 秒ずれています：タイムプロファイルと日付は自身の時計で判断されます',
    ctlNoRefusal: 'このドアでのこのカードの拒否記録はありません',
    ctlLastRefusal: '直近 {{time}} に {{channel}} で拒否：{{reason}}（コントローラーコード {{code}}）',
    ctlRefusedThenGranted:
      '直近 {{time}} に {{channel}} で拒否：{{reason}}（コントローラーコード {{code}}）；その後 {{granted}} に通過',
  },
  disagree: {
    cardMissing:
      'Gatehouse はカード {{card}} にドア {{door}} の権限を与えていますが、コントローラー {{device}} はこのカードを保持していないため拒否します。今すぐ同期で書き込みます',
    cardExtra:
      'コントローラー {{device}} はまだカード {{card}} とドア {{door}} の権限を保持していますが、Gatehouse は許可していません：解錠してしまいます。今すぐ同期で削除します',
    doorValue:
      'コントローラー {{device}} ではカード {{card}} のドア {{door}} が「{{held}}」、Gatehouse では「{{ours}}」です。今すぐ同期で Gatehouse の設定を書き込みます',
    dates:
      'コントローラー {{device}} ではカード {{card}} の有効日付が {{heldFrom}} ～ {{heldTo}}、Gatehouse では {{from}} ～ {{to}} です。今すぐ同期で Gatehouse の設定を書き込みます',
    profileMissing:
      'コントローラー {{device}} にタイムプロファイル {{slot}}（「{{profile}}」）がなく、カードを常時通します。今すぐ同期で書き込みます',
    profile:
      'コントローラー {{device}} のタイムプロファイル {{slot}} が Gatehouse の「{{profile}}」と異なります（日付、曜日または時間帯）。今すぐ同期で Gatehouse の設定を書き込みます',
    clock:
      'コントローラー {{device}} の時計が {{drift}} 秒ずれており、時間と日付をそれで判断します。デバイス管理の「時刻合わせ」で合わせられます',
    doorMode:
      'コントローラー {{device}} のドア {{door}} は「{{held}}」、Gatehouse は「{{ours}}」を求めています。今すぐ同期で戻します',
  },
};
