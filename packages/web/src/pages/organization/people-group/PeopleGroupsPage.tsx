import type { PeopleGroupItem } from '@gatehouse/shared';
import { PEOPLE_GROUP_ADMIN, PeopleGroupApi, PeopleTypeApi } from '@gatehouse/shared';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ListPage, type ListPageConfig } from '../../../components/list-page/index.ts';

type NamedRow = PeopleGroupItem;

function namedList(api: typeof PeopleGroupApi | typeof PeopleTypeApi): ListPageConfig<NamedRow> {
  return {
    api,
    read: PEOPLE_GROUP_ADMIN,
    write: PEOPLE_GROUP_ADMIN,
    testId: `list-${api.name}`,
    actions: { create: true, edit: true, remove: true, batchRemove: true, export: true },
    filters: [{ name: 'Name', label: 'admin.field.Name', kind: 'text' }],
    defaultSort: { field: 'Sort', order: 'asc' },
    columns: [
      { key: 'Name', title: 'admin.field.Name', sort: 'Name' },
      { key: 'Remark', title: 'admin.field.Remark', ellipsis: true },
      { key: 'Sort', title: 'admin.field.Sort', sort: 'Sort', width: 90 },
      { key: 'CreatedAt', title: 'admin.field.CreatedAt', kind: 'instant', sort: 'CreatedAt', width: 170 },
    ],
    form: {
      fields: [
        { name: 'Name', label: 'admin.field.Name', kind: 'text', required: true, maxLength: 50 },
        { name: 'Remark', label: 'admin.field.Remark', kind: 'textarea', maxLength: 200 },
        { name: 'Sort', label: 'admin.field.Sort', kind: 'number', min: 0, max: 9999 },
      ],
    },
  };
}

const groups = namedList(PeopleGroupApi);
const types = namedList(PeopleTypeApi);

/**
 * The two menu entries of one path (spec section 2): "people groups", and "people types" with
 * `?kind=type`; each opens the list its title names.
 */
export default function PeopleGroupsPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const isTypes = params.get('kind') === 'type';
  return isTypes ? (
    <ListPage key="types" config={types} title={t('route.peopleTypes')} />
  ) : (
    <ListPage key="groups" config={groups} title={t('route.peopleGroups')} />
  );
}
