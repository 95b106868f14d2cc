import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { priceLineText, yuan, type PriceLineItem } from '@gatehouse/shared';

/**
 * An order's itemised lines as a small table that adds up to its amount (docs/garage.md, "Tariff dimensions"):
 * each line's label (period, power band, service fee, idle fee, cap…), quantity, unit price and amount in yuan,
 * and the total. While the session runs they are the live estimate's, and say so.
 */
export function PriceLines({
  lines,
  amountCents,
  estimated,
}: {
  lines: PriceLineItem[] | null;
  amountCents: number;
  estimated: boolean;
}) {
  const { t } = useTranslation();
  if (lines === null) return <Typography.Text type="secondary">-</Typography.Text>;
  if (lines.length === 0)
    return (
      <Typography.Text type="secondary" data-testid="price-lines-none">
        {t('garageUi.order.noLines')}
      </Typography.Text>
    );
  const tr = (key: string, params?: Record<string, string | number>): string =>
    String(t(key as never, params as never));
  const rows = lines.map((line, i) => ({ key: i, ...priceLineText(line, tr) }));
  return (
    <div data-testid="price-lines">
      <Table
        size="small"
        pagination={false}
        dataSource={rows}
        aria-label={t('garageUi.order.lines')}
        columns={[
          { key: 'label', dataIndex: 'label', title: t('garageUi.order.lineItem') },
          { key: 'quantity', dataIndex: 'quantity', title: t('garageUi.order.lineQuantity'), align: 'right' },
          {
            key: 'unitPrice',
            dataIndex: 'unitPrice',
            title: t('garageUi.order.lineUnitPrice'),
            align: 'right',
          },
          { key: 'amount', dataIndex: 'amount', title: t('garageUi.order.lineAmount'), align: 'right' },
        ]}
        summary={() => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} colSpan={3}>
              <Typography.Text strong>{t('garageUi.order.lineTotal')}</Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={3} align="right">
              <Typography.Text strong data-testid="price-lines-total">
                {yuan(amountCents)}
              </Typography.Text>
            </Table.Summary.Cell>
          </Table.Summary.Row>
        )}
      />
      {estimated && <Typography.Text type="secondary">{t('garageUi.order.linesEstimated')}</Typography.Text>}
    </div>
  );
}
