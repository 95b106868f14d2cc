import { Link } from 'react-router';
import { Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { changeType, displayToCard, findEnumItem, issueStatus } from '@gatehouse/shared';
import type { TKey } from '../../components/list-page/index.ts';
import { formatSiteTime } from '../../core/site-time.ts';

const dash = <Typography.Text type="secondary">-</Typography.Text>;

/**
 * Issue statuses as tags. The spec gives them no colours; these say what an operator should expect: blue and
 * gold wait for the device sync, green is on the controller, volcano waits for removal, grey is gone, cyan
 * is a device that needs no issue. The label always stands in the tag.
 */
export const ISSUE_STATUS_COLOURS: Record<number, string> = {
  [-2]: 'default',
  [-1]: 'volcano',
  0: 'cyan',
  1: 'blue',
  2: 'gold',
  3: 'green',
};

export function IssueStatusTag({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const item = findEnumItem(issueStatus, value);
  if (!item) return value === null || value === undefined ? dash : <span>{String(value)}</span>;
  return (
    <Tag color={ISSUE_STATUS_COLOURS[item.value]} data-issue-status={item.value}>
      {t(item.key as never)}
    </Tag>
  );
}

/** Change types as tags: added green, modified blue, disabled red, enabled cyan, extended purple. */
const CHANGE_COLOURS: Record<number, string> = { 0: 'green', 1: 'blue', 2: 'red', 3: 'cyan', 4: 'purple' };

export function ChangeTypeTag({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const item = findEnumItem(changeType, value);
  if (!item) return dash;
  return <Tag color={CHANGE_COLOURS[item.value]}>{t(item.key as never)}</Tag>;
}

/** A door-opening result: opened green, failed red. */
export function ResultTag({ opened }: { opened: boolean }) {
  const { t } = useTranslation();
  return (
    <Tag color={opened ? 'success' : 'error'} data-result={String(opened)}>
      {t(`enum.doorRecordResult.${opened}` as never)}
    </Tag>
  );
}

/** The controller's form of a printed card number (bytes reversed), or null for a number that has none. */
export function deviceCardValue(cardNumber: string): number | null {
  try {
    return displayToCard(cardNumber);
  } catch {
    return null;
  }
}

/** Printed card numbers, each with its controller form on hover; more than `max` fold into "+n". */
export function CardNumbersCell({
  numbers,
  max = 2,
  link,
}: {
  numbers: readonly string[];
  max?: number;
  /** Where a card number leads (the access check of that card), when it is a link. */
  link?: (card: string) => string;
}) {
  const { t } = useTranslation();
  if (numbers.length === 0) return <Typography.Text type="secondary">{t('acUi.noCard')}</Typography.Text>;
  const shown = numbers.slice(0, max);
  const rest = numbers.slice(max);
  return (
    <Space size={2} wrap={false} className="list-page-nowrap">
      {shown.map((n) => (
        <Tooltip key={n} title={t('acUi.card.deviceForm', { value: deviceCardValue(n) ?? '-' })}>
          <Tag className="ac-card-number">
            {link ? (
              <Link to={link(n)} data-testid="card-check">
                {n}
              </Link>
            ) : (
              n
            )}
          </Tag>
        </Tooltip>
      ))}
      {rest.length > 0 && (
        <Tooltip title={rest.join('、')}>
          <Tag>+{rest.length}</Tag>
        </Tooltip>
      )}
    </Space>
  );
}

/**
 * A validity range, on one line or stacked (from above, to below) where the table is tight; an end in the
 * past is marked expired.
 */
export function ValidityCell({
  from,
  to,
  custom,
  stacked,
}: {
  from: string;
  to: string;
  custom?: boolean;
  stacked?: boolean;
}) {
  const { t } = useTranslation();
  const expired = dayjs(to).isBefore(dayjs());
  const tags = (
    <>
      {custom && <Tag color="geekblue">{t('accessControl.field.CustomValidity')}</Tag>}
      {expired && <Tag color="red">{t('accessControl.field.Expired')}</Tag>}
    </>
  );
  // Stacked, the tags take a line of their own so they do not widen the column for every row.
  if (stacked)
    return (
      <div className="list-page-nowrap">
        <div>{formatSiteTime(from, 'YYYY-MM-DD HH:mm')}</div>
        <div>~ {formatSiteTime(to, 'YYYY-MM-DD HH:mm')}</div>
        {(custom || expired) && <div>{tags}</div>}
      </div>
    );
  return (
    <Space size={4} className="list-page-nowrap">
      <span>
        {formatSiteTime(from, 'YYYY-MM-DD HH:mm')} ~ {formatSiteTime(to, 'YYYY-MM-DD HH:mm')}
      </span>
      {tags}
    </Space>
  );
}

/** An area name, or a tag saying the device or card waits in the pool. */
export function PoolAreaCell({ name, pool }: { name: string | null; pool: TKey }) {
  const { t } = useTranslation();
  return name ? <span>{name}</span> : <Tag color="orange">{t(pool)}</Tag>;
}

/**
 * A name with a secondary line (a device's serial number, a channel's door). A long name ends in an
 * ellipsis and shows whole on hover, so one long device name does not widen the whole table.
 */
export function TwoLineCell({ main, sub }: { main: string; sub: string | number | null }) {
  return (
    <div className="list-page-nowrap">
      <div className="ac-name" title={main}>
        {main}
      </div>
      {sub !== null && sub !== '' && (
        <Typography.Text type="secondary" className="ac-sub">
          {sub}
        </Typography.Text>
      )}
    </div>
  );
}
