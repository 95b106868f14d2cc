import { useTranslation } from 'react-i18next';
import { Tag } from 'antd';
import {
  ACCESS_CONTROL_ADMIN,
  ACCESS_CONTROL_ANY,
  TimeProfileApi,
  type TimeProfileItem,
} from '@gatehouse/shared';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import {
  TIME_PROFILE_OPTIONS_KEY,
  dateRangeColumn,
  parseSegments,
  periodFields,
  segmentsText,
  timeProfileOptions,
  weekdaysColumn,
} from './options.ts';
import '../access-control.css';

type ProfileRow = TimeProfileItem;

/**
 * Time profiles (read: Admin or User; write: Admin): when a granted card opens its door. Gatehouse compiles each
 * into controller profiles (2..254) on every controller whose cards use it; "not on holidays" splits it around
 * the area's holidays (the Parts column says into how many).
 */
const config: ListPageConfig<ProfileRow> = {
  api: TimeProfileApi,
  read: ACCESS_CONTROL_ANY,
  write: ACCESS_CONTROL_ADMIN,
  actions: { create: true, edit: true, remove: true, export: true },
  defaultSort: { field: 'Name', order: 'asc' },
  // The profile choices (grants, links) follow every change.
  invalidates: [TIME_PROFILE_OPTIONS_KEY],
  filters: [{ name: 'Keyword', label: 'adminUi.keyword', kind: 'text', width: 200 }],
  columns: [
    { key: 'Name', title: 'accessControl.field.ProfileName', sort: 'Name', width: 160 },
    dateRangeColumn(),
    weekdaysColumn(),
    {
      key: 'Segments',
      title: 'accessControl.field.Segments',
      width: 200,
      render: (row) => segmentsText(row.Segments),
    },
    { key: 'LinkedProfileName', title: 'accessControl.field.LinkedProfile', width: 130 },
    {
      key: 'NotOnHolidays',
      title: 'accessControl.field.NotOnHolidays',
      width: 120,
      render: (row, t) =>
        row.NotOnHolidays ? <Tag color="orange">{t('acUi.rules.notOnHolidays')}</Tag> : '-',
    },
    { key: 'Parts', title: 'acUi.rules.parts', kind: 'number', width: 110 },
    { key: 'GrantCount', title: 'accessControl.field.AuthorizationCount', kind: 'number', width: 90 },
  ],
  form: {
    width: 720,
    defaults: () => ({
      Weekdays: [1, 2, 3, 4, 5],
      Segments: '08:00-18:00',
      NotOnHolidays: false,
    }),
    fields: [
      { name: 'Name', label: 'accessControl.field.ProfileName', kind: 'text', required: true, maxLength: 50 },
      {
        name: 'LinkedProfileId',
        label: 'accessControl.field.LinkedProfile',
        kind: 'select',
        options: timeProfileOptions,
        extra: 'acUi.rules.linkedHint',
      },
      ...periodFields,
      {
        name: 'Segments',
        label: 'accessControl.field.Segments',
        kind: 'text',
        required: true,
        placeholder: 'acUi.rules.segmentsPlaceholder',
        extra: 'acUi.rules.segmentsHint',
        fromItem: (item) => segmentsText(item.Segments),
        wide: true,
      },
      {
        name: 'NotOnHolidays',
        label: 'accessControl.field.NotOnHolidays',
        kind: 'switch',
        extra: 'acUi.rules.holidayHint',
      },
      { name: 'Remark', label: 'accessControl.field.Remark', kind: 'text', maxLength: 200 },
    ],
    toBody: (values, item) => ({
      ...(item ? { Id: item.Id } : {}),
      Name: values.Name,
      StartDate: values.StartDate,
      EndDate: values.EndDate,
      Weekdays: values.Weekdays,
      Segments: parseSegments(values.Segments),
      LinkedProfileId: values.LinkedProfileId ?? null,
      NotOnHolidays: values.NotOnHolidays === true,
      Remark: values.Remark ?? null,
    }),
  },
};

export default function TimeProfilesPage() {
  const { t } = useTranslation();
  return <ListPage config={config} title={t('route.timeProfiles')} />;
}
