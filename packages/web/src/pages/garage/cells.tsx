import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { findEnumItem, formatCents, formatKWh, paymentState } from '@gatehouse/shared';
import {
  CentsCell,
  EllipsisCell,
  InstantCell,
  type ColumnDef,
  type Row,
  type TKey,
} from '../../components/list-page/index.ts';

const dash = <Typography.Text type="secondary">-</Typography.Text>;

/**
 * Payment states as tags. The spec gives these states no colours; these follow what each means to an
 * operator (money owed, collected, going back, gone back, nothing to do), always next to the label.
 */
const PAYMENT_TAG_COLOURS: Record<number, string> = {
  0: 'orange', // unpaid
  1: 'default', // closed
  2: 'green', // paid
  3: 'purple', // moved to refund
  4: 'red', // payment failed
  5: 'blue', // user paying
  6: 'default', // cancelled
  7: 'cyan', // refund succeeded
  8: 'geekblue', // refund cancelled: collected again
  9: 'purple', // refunding
  10: 'magenta', // refund exception
};

export function PaymentStateTag({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const item = findEnumItem(paymentState, value);
  if (!item) return value === null || value === undefined ? dash : <span>{String(value)}</span>;
  return (
    <Tag color={PAYMENT_TAG_COLOURS[item.value]} data-payment-state={item.value}>
      {t(item.key as never)}
    </Tag>
  );
}

/** A unit price with what it is per: ¥1.00 / 小时. */
export function PriceCell({ cents, unitKey }: { cents: number; unitKey: string | null }) {
  const { t } = useTranslation();
  return (
    <span className="list-page-nowrap">
      ¥{formatCents(cents)}
      {unitKey ? ` / ${t(unitKey as TKey)}` : ''}
    </span>
  );
}

/** An order's amount; while its session or stay runs, the live estimate, marked as such. */
export function AmountCell({ cents, estimated }: { cents: number | null; estimated: boolean }) {
  const { t } = useTranslation();
  if (cents === null) return dash;
  return (
    <Space size={4} className="list-page-nowrap">
      <CentsCell value={cents} />
      {estimated && <Tag color="processing">{t('garageUi.estimated')}</Tag>}
    </Space>
  );
}

/** Energy in kWh (度) from whole Wh. */
export function EnergyCell({ wh }: { wh: number | null }) {
  return wh === null ? dash : <span className="list-page-nowrap">{formatKWh(wh)}</span>;
}

/** An end time, or a tag saying the session or stay is still going. */
export function EndCell({ value, running }: { value: string | null; running: TKey }) {
  const { t } = useTranslation();
  if (value) return <InstantCell value={value} />;
  return <Tag color="processing">{t(running)}</Tag>;
}

/** Where a session happened: the host and the socket's port. */
export function SocketCell({ host, port }: { host: string; port: number }) {
  const { t } = useTranslation();
  return <span className="list-page-nowrap">{t('garageUi.socket.hostPort', { host, port })}</span>;
}

/** The column of where a session happened: host and port. */
export function socketColumn<T extends Row & { HostName: string; PortNumber: number }>(): ColumnDef<T> {
  return {
    key: 'HostName',
    title: 'garageUi.socket.column',
    render: (row) => <SocketCell host={row.HostName} port={row.PortNumber} />,
  };
}

/** Why an order was closed or refunded (an order has at most one of the two). */
export function ReasonCell({ refund, close }: { refund: string | null; close: string | null }) {
  return <EllipsisCell value={refund ?? close} />;
}
