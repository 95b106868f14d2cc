import { AREA_MANAGERS, AreaInfoApi, type AreaInfoItem } from '@gatehouse/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../../core/api.ts';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';
import { AreaUsersDialog } from './AreaUsersDialog.tsx';
import { systemDialogs } from '../dialogs.ts';

type AreaRow = AreaInfoItem;

/** Custom JSON shown indented in the editor. */
function prettyJson(text: string | null): string {
  if (!text) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** Areas: create, rename, edit Custom as JSON, disable, authorise users, delete when nothing depends on it. */
const config: ListPageConfig<AreaRow> = {
  api: AreaInfoApi,
  read: AREA_MANAGERS,
  write: AREA_MANAGERS,
  actions: { create: true, edit: true, remove: true, status: true },
  // Areas are older than the resource shape: delete and status take the id in the query.
  endpoints: {
    remove: (ids) => Promise.all(ids.map((Id) => call(AreaInfoApi.remove, { query: { Id } }))),
    setStatus: (Id, Disabled) => call(AreaInfoApi.setDisabled, { query: { Id, Disabled } }),
  },
  filters: [
    { name: 'Name', label: 'admin.field.Name', kind: 'text' },
    { name: 'Disabled', label: 'admin.field.Status', kind: 'bool' },
  ],
  columns: [
    { key: 'Id', title: 'admin.field.Id', width: 80 },
    { key: 'Name', title: 'admin.field.Name', width: 200 },
    { key: 'Custom', title: 'admin.field.Custom', ellipsis: true },
    { key: 'UserCount', title: 'admin.field.UserCount', width: 100 },
    { key: 'Disabled', title: 'admin.field.Status', kind: 'status', width: 100 },
    { key: 'CreatedAt', title: 'admin.field.CreatedAt', kind: 'instant', width: 170 },
  ],
  form: {
    width: 640,
    fields: [
      { name: 'Name', label: 'admin.field.Name', kind: 'text', required: true, maxLength: 50 },
      {
        name: 'Custom',
        label: 'admin.field.Custom',
        kind: 'json',
        fromItem: (a) => prettyJson(a.Custom),
        extra: 'adminUi.customHint',
      },
    ],
    toBody: (values) => ({
      ...values,
      Custom: typeof values.Custom === 'string' && values.Custom.trim() ? values.Custom : null,
    }),
  },
  rowActions: [
    { key: 'users', label: 'adminUi.areaUsers', run: (row) => systemDialogs.open('areaUsers', row) },
  ],
};

export default function AreaManagementPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <>
      <ListPage config={config} title={t('route.areaManagement')} />
      <AreaUsersDialog
        area={systemDialogs.use('areaUsers')}
        onClose={() => systemDialogs.close('areaUsers')}
        onSaved={() => void queryClient.invalidateQueries({ queryKey: ['list', AreaInfoApi.name] })}
      />
    </>
  );
}
