import { Button, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  MonthlyPassApi,
  chargeType,
  findEnumItem,
  timeUnit,
  BICYCLE_ADMIN,
  BICYCLE_ANY,
  type MonthlyPassItem,
} from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { ListPage, type ListPageConfig, type TKey } from '../../../components/list-page/index.ts';
import { openDialog } from '../dialogs.ts';
import { monthlyRuleOptions } from '../options.ts';

type PassRow = MonthlyPassItem;

const STATUS_COLOURS: Record<PassRow['Status'], string> = {
  Upcoming: 'blue',
  Active: 'green',
  Expired: 'default',
};

/** "Sell a pass" above the list. */
function SellButton() {
  const { t } = useTranslation();
  return (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      onClick={() => openDialog('sellPass', {})}
      data-testid="pass-sell"
    >
      {t('garageUi.vehicle.sellPass')}
    </Button>
  );
}

/** Monthly passes of the area: sell, renew, and (Admin) delete a pass sold by mistake. */
const config: ListPageConfig<PassRow> = {
  api: MonthlyPassApi,
  read: BICYCLE_ANY,
  write: BICYCLE_ANY,
  actions: { export: true },
  defaultSort: { field: 'StartAt', order: 'desc' },
  filters: [
    { name: 'Plate', label: 'garage.field.Plate', kind: 'text' },
    { name: 'ChargeRuleId', label: 'garage.field.RuleName', kind: 'select', options: monthlyRuleOptions },
    {
      name: 'Status',
      label: 'garage.field.Status',
      kind: 'select',
      options: {
        kind: 'static',
        options: (tr) => [
          { value: 'Active', label: tr('garage.passStatus.Active') },
          { value: 'Expired', label: tr('garage.passStatus.Expired') },
        ],
      },
      // "Valid now" and "ended" are instants on the server, taken when the filter is applied.
      toQuery: (value): Record<string, string> =>
        value === 'Active' ? { ValidAt: new Date().toISOString() } : { EndBefore: new Date().toISOString() },
    },
  ],
  columns: [
    { key: 'Plate', title: 'garage.field.Plate', sort: 'Plate', width: 110 },
    { key: 'OwnerName', title: 'garage.field.OwnerName', width: 100 },
    { key: 'RuleName', title: 'garage.field.RuleName', width: 160 },
    {
      key: 'Status',
      title: 'garage.field.Status',
      width: 100,
      render: (row, tr) => (
        <Tag color={STATUS_COLOURS[row.Status]}>{tr(`garage.passStatus.${row.Status}`)}</Tag>
      ),
    },
    { key: 'StartAt', title: 'garage.field.StartAt', kind: 'instant', sort: 'StartAt', width: 170 },
    { key: 'EndAt', title: 'garage.field.EndAt', kind: 'instant', sort: 'EndAt', width: 170 },
    {
      key: 'Units',
      title: 'garage.field.Units',
      width: 100,
      render: (row, tr) => {
        const unit = findEnumItem(timeUnit, row.TimeUnit);
        return `${row.Units} ${unit ? tr(unit.key as TKey) : ''}`;
      },
    },
    { key: 'AmountCents', title: 'garage.field.Amount', kind: 'cents', width: 110 },
    {
      key: 'RenewedFromId',
      title: 'garageUi.pass.renewal',
      width: 90,
      render: (row, tr) =>
        row.RenewedFromId ? (
          <Tag>{tr('garage.action.Renew')}</Tag>
        ) : (
          <Typography.Text type="secondary">-</Typography.Text>
        ),
    },
    {
      key: 'ChargeType',
      title: 'garage.field.ChargeType',
      kind: 'enum',
      enumDef: chargeType,
      width: 150,
    },
    { key: 'UserName', title: 'garage.field.Operator', width: 110 },
    { key: 'Remark', title: 'garage.field.Remark', ellipsis: true },
  ],
  rowActions: [
    {
      key: 'renew',
      label: 'garage.action.Renew',
      codes: BICYCLE_ANY,
      run: (row) => openDialog('renewPass', row),
    },
    {
      key: 'delete',
      label: 'list.delete',
      codes: BICYCLE_ADMIN,
      danger: true,
      confirm: 'garageUi.pass.confirmDelete',
      run: (row) => call(MonthlyPassApi.deletePass, { params: { Id: row.Id } }),
    },
  ],
  toolbar: <SellButton />,
};

export function PassesList() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('garage.title.monthlyPass')} />;
}
