import { useTranslation } from 'react-i18next';
import { ACCESS_CONTROL_ADMIN, ACCESS_CONTROL_ANY, HolidayApi, type HolidayItem } from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import '../access-control.css';

/** The area's holiday calendar (read: Admin or User; write: Admin): a day or a range, named. */
const config: ListPageConfig<HolidayItem> = {
  api: HolidayApi,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ADMIN,
  actions: { create: true, edit: true, remove: true, export: true },
  defaultSort: { field: 'StartDate', order: 'asc' },
  columns: [
    { key: 'Name', title: 'accessControl.field.HolidayName', width: 180 },
    { key: 'StartDate', title: 'accessControl.field.StartDate', width: 130 },
    { key: 'EndDate', title: 'accessControl.field.EndDate', width: 130 },
    { key: 'Days', title: 'accessControl.field.Days', kind: 'number', width: 80 },
    { key: 'Remark', title: 'accessControl.field.Remark', ellipsis: true },
  ],
  form: {
    width: 560,
    fields: [
      { name: 'Name', label: 'accessControl.field.HolidayName', kind: 'text', required: true, maxLength: 50 },
      { name: 'StartDate', label: 'accessControl.field.StartDate', kind: 'date', required: true },
      { name: 'EndDate', label: 'accessControl.field.EndDate', kind: 'date', required: true },
      { name: 'Remark', label: 'accessControl.field.Remark', kind: 'text', maxLength: 200 },
    ],
  },
};

export default function HolidaysPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.holidays')} />;
}
