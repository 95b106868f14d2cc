import { Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { VehicleApi, cardNumber, phone, plate, BICYCLE_ANY, type VehicleItem } from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { formatSiteTime } from '../../../core/site-time.ts';
import { openDialog } from '../dialogs.ts';

/** Vehicles by plate with their owner, card and the pass valid now; desk work for both codes. */
const config: ListPageConfig<VehicleItem> = {
  api: VehicleApi,
  read: BICYCLE_ANY,
  write: BICYCLE_ANY,
  actions: { create: true, edit: true, remove: true, batchRemove: true, status: true, export: true },
  defaultSort: { field: 'Plate', order: 'asc' },
  refreshes: ['MonthlyPass'],
  filters: [
    {
      name: 'Keyword',
      label: 'garageUi.keyword',
      kind: 'text',
      placeholder: 'garageUi.vehicle.keyword',
      width: 220,
    },
    { name: 'Disabled', label: 'garage.field.Status', kind: 'bool' },
  ],
  columns: [
    { key: 'Plate', title: 'garage.field.Plate', sort: 'Plate', width: 110 },
    { key: 'OwnerName', title: 'garage.field.OwnerName', width: 100 },
    { key: 'Phone', title: 'garage.field.Phone', width: 130 },
    { key: 'CardHolderName', title: 'garage.field.CardHolderName', width: 100 },
    { key: 'CardNumber', title: 'garage.field.CardNumber', width: 120 },
    {
      key: 'ActivePass',
      title: 'garage.field.ActivePass',
      width: 220,
      render: (row, tr) =>
        row.ActivePass ? (
          <Tooltip title={`${tr('garage.field.EndAt')} ${formatSiteTime(row.ActivePass.EndAt)}`}>
            <span className="list-page-nowrap">
              <Tag color="green">{row.ActivePass.RuleName}</Tag>
              <Typography.Text type="secondary">
                {tr('garageUi.pass.until', { date: formatSiteTime(row.ActivePass.EndAt, 'YYYY-MM-DD') })}
              </Typography.Text>
            </span>
          </Tooltip>
        ) : (
          <Typography.Text type="secondary">-</Typography.Text>
        ),
    },
    { key: 'Disabled', title: 'garage.field.Status', kind: 'status', width: 100 },
    { key: 'Remark', title: 'garage.field.Remark', ellipsis: true },
    { key: 'CreatedAt', title: 'garageUi.createdAt', kind: 'instant', sort: 'CreatedAt', width: 170 },
  ],
  form: {
    width: 720,
    fields: [
      {
        name: 'Plate',
        label: 'garage.field.Plate',
        kind: 'text',
        required: true,
        rules: [plate],
        maxLength: 10,
      },
      { name: 'OwnerName', label: 'garage.field.OwnerName', kind: 'text', maxLength: 50 },
      { name: 'Phone', label: 'garage.field.Phone', kind: 'text', rules: [phone], maxLength: 11 },
      { name: 'CardHolderName', label: 'garage.field.CardHolderName', kind: 'text', maxLength: 50 },
      {
        name: 'CardNumber',
        label: 'garage.field.CardNumber',
        kind: 'text',
        rules: [cardNumber],
        maxLength: 10,
      },
      { name: 'Remark', label: 'garage.field.Remark', kind: 'textarea', maxLength: 200 },
    ],
  },
  rowActions: [
    {
      key: 'sell-pass',
      label: 'garageUi.vehicle.sellPass',
      codes: BICYCLE_ANY,
      run: (row) => openDialog('sellPass', { vehicleId: row.Id }),
    },
  ],
};

export function VehiclesList() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('garage.title.vehicle')} />;
}
