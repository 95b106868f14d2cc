import { Switch, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { findEnumItem, formatDate, type EnumDef } from '@gatehouse/shared';

/** An instant as YYYY-MM-DD HH:mm:ss in the browser's time zone; '' when absent. */
export function InstantCell({ value }: { value: unknown }) {
  if (typeof value !== 'string' || !value) return <Typography.Text type="secondary">-</Typography.Text>;
  return <span className="list-page-nowrap">{formatDate(value)}</span>;
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
