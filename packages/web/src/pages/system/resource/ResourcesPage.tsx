import { RESOURCE_MANAGERS, ResourceApi, type ResourceNode } from '@gatehouse/shared';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../core/api.ts';
import type { Option } from '../../../components/list-page/index.ts';
import { TreePage, type TreePageConfig } from '../../../components/list-page/TreePage.tsx';

/** Menus that can hold other resources, as a tree of choices. */
function menus(nodes: ResourceNode[]): Option[] {
  return nodes
    .filter((n) => n.Type === 'menu')
    .map((n) => ({
      value: n.Id,
      label: n.Name,
      ...(n.Children.some((c) => c.Type === 'menu') ? { children: menus(n.Children) } : {}),
    }));
}

/** Resources: the tree of menus and permission codes; built-in ones cannot be deleted. */
const config: TreePageConfig<ResourceNode> = {
  api: ResourceApi,
  tree: ResourceApi.tree,
  read: RESOURCE_MANAGERS,
  write: RESOURCE_MANAGERS,
  parentField: 'ParentId',
  canAddChild: (row) => row.Type === 'menu',
  canDelete: (row) => !row.BuiltIn,
  columns: [
    { key: 'Name', title: 'admin.field.Name' },
    { key: 'Code', title: 'admin.field.Code', width: 220 },
    {
      key: 'Type',
      title: 'admin.field.Type',
      width: 110,
      render: (row, tr) => (
        <Tag color={row.Type === 'menu' ? 'blue' : 'green'}>{tr(`admin.resourceType.${row.Type}`)}</Tag>
      ),
    },
    { key: 'RoleCount', title: 'admin.field.RoleCount', width: 90 },
    {
      key: 'BuiltIn',
      title: 'adminUi.builtIn',
      width: 90,
      render: (row, tr) => (row.BuiltIn ? <Tag color="gold">{tr('adminUi.builtIn')}</Tag> : ''),
    },
    { key: 'Sort', title: 'admin.field.Sort', width: 80 },
  ],
  form: {
    fields: [
      {
        name: 'Code',
        label: 'admin.field.Code',
        kind: 'text',
        required: true,
        maxLength: 60,
        lockedOnEdit: true,
      },
      { name: 'Name', label: 'admin.field.Name', kind: 'text', required: true, maxLength: 50 },
      {
        name: 'Type',
        label: 'admin.field.Type',
        kind: 'select',
        required: true,
        lockedOnEdit: true,
        options: {
          kind: 'static',
          options: (t) => [
            { value: 'menu', label: t('admin.resourceType.menu') },
            { value: 'permission', label: t('admin.resourceType.permission') },
          ],
        },
      },
      {
        name: 'ParentId',
        label: 'admin.field.Parent',
        kind: 'treeSelect',
        placeholder: 'adminUi.topLevel',
        options: {
          kind: 'remote',
          key: 'resource-menus',
          load: async () => menus(await call(ResourceApi.tree)),
        },
      },
      { name: 'Sort', label: 'admin.field.Sort', kind: 'number', min: 0, max: 9999 },
    ],
    toBody: (values) => ({ ...values, ParentId: values.ParentId ?? null }),
  },
};

export default function ResourcesPage() {
  const { t } = useTranslation();
  return <TreePage config={config} title={t('route.resources')} />;
}
