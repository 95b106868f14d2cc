import { DEPARTMENT_READ, DEPARTMENT_WRITE, DepartmentApi, type DepartmentNode } from '@gatehouse/shared';
import { useTranslation } from 'react-i18next';
import { TreePage, type TreePageConfig } from '../../../components/list-page/TreePage.tsx';
import { departmentOptions } from '../../options.ts';

/** The area's department tree with member counts: add, rename, move (change the parent), delete when empty. */
const config: TreePageConfig<DepartmentNode> = {
  api: DepartmentApi,
  tree: DepartmentApi.tree,
  read: DEPARTMENT_READ,
  write: DEPARTMENT_WRITE,
  parentField: 'ParentId',
  exportable: true,
  columns: [
    { key: 'Name', title: 'admin.field.Name' },
    { key: 'MemberCount', title: 'adminUi.ownMembers', width: 120 },
    { key: 'TotalMemberCount', title: 'adminUi.totalMembers', width: 140 },
    { key: 'Sort', title: 'admin.field.Sort', width: 90 },
  ],
  form: {
    fields: [
      { name: 'Name', label: 'admin.field.Name', kind: 'text', required: true, maxLength: 50 },
      {
        name: 'ParentId',
        label: 'admin.field.ParentDepartment',
        kind: 'treeSelect',
        options: departmentOptions,
        placeholder: 'adminUi.topLevel',
      },
      { name: 'Sort', label: 'admin.field.Sort', kind: 'number', min: 0, max: 9999 },
    ],
    toBody: (values) => ({ ...values, ParentId: values.ParentId ?? null }),
  },
};

export default function DepartmentsPage() {
  const { t } = useTranslation();
  return <TreePage config={config} title={t('route.departments')} />;
}
