import type { RowAction, Row, TKey } from '../../../components/list-page/index.ts';
import { formatSiteTime } from '../../../core/site-time.ts';
import { linkState } from '../dialog-state.ts';
import { ACCESS_CONTROL_ANY } from '@gatehouse/shared';

/**
 * The way to the access check (issue 31) from the screens that name a card, a door or a swipe: a link carrying the
 * card number, the channel and the minute of the area's clock it is about, each optional. The check screen reads
 * them from its query string, so a link can be kept, shared or opened in a new tab.
 */
export const ACCESS_CHECK_PATH = '/accesscontrol/accessCheck';

export interface CheckTarget {
  CardNumber?: string | null | undefined;
  ChannelId?: number | null | undefined;
  /** A minute of the area's clock, `YYYY-MM-DD HH:mm`; absent: now. */
  At?: string | null | undefined;
}

export function accessCheckLink(target: CheckTarget): string {
  const params = new URLSearchParams();
  if (target.CardNumber) params.set('CardNumber', target.CardNumber);
  if (target.ChannelId) params.set('ChannelId', String(target.ChannelId));
  if (target.At) params.set('At', target.At);
  const query = params.toString();
  return query ? `${ACCESS_CHECK_PATH}?${query}` : ACCESS_CHECK_PATH;
}

/** An instant as the minute of the area's clock the check takes (a swipe's time). */
export function checkMinute(instant: string): string {
  return formatSiteTime(instant, 'YYYY-MM-DD HH:mm');
}

/**
 * A list's row action opening the access check on what the row names, and the hook its page calls to follow it
 * (a declaration runs outside the component; dialog-state.ts `linkState`). One per page, so pages kept open in
 * other tabs do not follow each other's clicks.
 */
export function accessCheckAction<T extends Row>(
  target: (row: T) => CheckTarget,
  visible?: (row: T) => boolean,
): { action: RowAction<T>; useFollow(): void } {
  const link = linkState();
  return {
    action: {
      key: 'accessCheck',
      label: 'accessCheckUi.action.check' as TKey,
      codes: ACCESS_CONTROL_ANY,
      ...(visible ? { visible } : {}),
      run: (row) => link.go(accessCheckLink(target(row))),
    },
    useFollow: link.useFollow,
  };
}
