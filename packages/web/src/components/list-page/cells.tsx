import type { ReactNode } from 'react';
import { Switch, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { findEnumItem, type EnumDef } from '@gatehouse/shared';
import { formatSiteTime } from '../../core/site-time.ts';
import type { ColumnDef, Row } from './types.ts';

/** An instant as YYYY-MM-DD HH:mm:ss at the site (the area's zone, not the browser's); '-' when absent. */
export function InstantCell({ value }: { value: unknown }) {
  if (typeof value !== 'string' || !value) return <Typography.Text type="secondary">-</Typography.Text>;
  return <span className="list-page-nowrap">{formatSiteTime(value)}</span>;
}

/** An enumeration value as its label, in a tag of its colour when the enumeration has colours. */
export function EnumCell({ def, value }: { def: EnumDef; value: unknown }) {
  const { t } = useTranslation();
  if (value === null || value === undefined) return <Typography.Text type="secondary">-</Typography.Text>;
  const item = findEnumItem(def, value);
  // A value outside the enumeration (a newer device state) shows as itself, as on the server.
  const label = item ? String(t(item.key as never)) : String(value);
  return item?.color ? (
    <Tag color={item.color} variant="solid">
      {label}
    </Tag>
  ) : (
    <span>{label}</span>
  );
}

/** Money in cents as ¥1,234.50. */
export function CentsCell({ value }: { value: unknown }) {
  if (typeof value !== 'number') return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <span className="list-page-nowrap">
      ¥{(value / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}
    </span>
  );
}

/** The Disabled flag: a switch (on = enabled) for those who may change it, else a tag. */
export function StatusCell({
  disabled,
  editable,
  loading,
  onChange,
}: {
  disabled: boolean;
  editable: boolean;
  loading?: boolean;
  onChange?(disabled: boolean): void;
}) {
  const { t } = useTranslation();
  if (!editable)
    return (
      <Tag color={disabled ? 'default' : 'success'}>
        {t(disabled ? 'enum.disabledFlag.true' : 'enum.disabledFlag.false')}
      </Tag>
    );
  return (
    <Switch
      size="small"
      checked={!disabled}
      loading={loading}
      checkedChildren={t('enum.disabledFlag.false')}
      unCheckedChildren={t('enum.disabledFlag.true')}
      onChange={(checked) => onChange?.(!checked)}
      data-testid="status-switch"
    />
  );
}

/** Long text on one line, complete on hover. */
export function EllipsisCell({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '')
    return <Typography.Text type="secondary">-</Typography.Text>;
  const text = String(value);
  return (
    <Tooltip title={text} placement="topLeft">
      <span className="list-page-ellipsis">{text}</span>
    </Tooltip>
  );
}

/**
 * Plain text: one line, at most the column's width (240 px by default), cut with an ellipsis and complete in a
 * tooltip when cut, so that a name at its maximum length (50 characters) does not push the other columns
 * off the list (issue 27). Every text column of every list shows this way.
 */
export function TextCell({ value, width }: { value: unknown; width?: number | undefined }) {
  if (value === null || value === undefined || value === '')
    return <Typography.Text type="secondary">-</Typography.Text>;
  const text = String(value);
  return (
    <Typography.Text
      className="list-page-text"
      style={{ maxWidth: width ?? TEXT_MAX_WIDTH }}
      ellipsis={{ tooltip: { title: text, placement: 'topLeft' } }}
    >
      {text}
    </Typography.Text>
  );
}

/** The widest a text cell grows before it is cut (px). */
export const TEXT_MAX_WIDTH = 240;

/** What a `status` column needs from its page to switch a row (absent: the flag shows as a tag). */
export interface StatusControl {
  editable: boolean;
  busyId: number | null;
  onChange(id: number, disabled: boolean): void;
}

/** One cell of a declared column, alike in lists and trees: the column's own render, else its kind. */
export function renderCell<T extends Row>(
  c: ColumnDef<T>,
  row: T,
  t: TFunction,
  status?: StatusControl,
): ReactNode {
  if (c.render) return c.render(row, (key, options) => String(t(key, options as never)));
  const value = row[c.key];
  switch (c.kind) {
    case 'instant':
      return <InstantCell value={value} />;
    case 'enum':
      return c.enumDef ? <EnumCell def={c.enumDef} value={value} /> : String(value ?? '');
    case 'cents':
      return <CentsCell value={value} />;
    case 'status':
      return (
        <StatusCell
          disabled={Boolean(value)}
          editable={status?.editable ?? false}
          loading={status?.busyId === row.Id}
          onChange={(disabled) => status?.onChange(row.Id, disabled)}
        />
      );
    case 'number':
      return value === null || value === undefined || value === '' ? (
        <Typography.Text type="secondary">-</Typography.Text>
      ) : (
        String(value)
      );
    default:
      if (c.ellipsis) return <EllipsisCell value={value} />;
      return <TextCell value={value} width={c.width} />;
  }
}
