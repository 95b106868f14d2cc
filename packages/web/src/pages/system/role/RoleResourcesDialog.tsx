import { ResourceApi, RoleApi, type ResourceNode } from '@gatehouse/shared';
import { useEffect, useState } from 'react';
import { Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../../core/api.ts';
import { feedback } from '../../../core/feedback.tsx';
import { SaveModal } from '../../../components/FormModal.tsx';

export type { ResourceNode };

export function resourceTreeData(nodes: ResourceNode[]): DataNode[] {
  return nodes.map((n) => ({
    key: n.Id,
    title: `${n.Name} (${n.Code})`,
    children: resourceTreeData(n.Children),
  }));
}

/** Checked ids minus menus whose children are not all checked (antd reports half-checked parents apart). */
interface Props {
  role: { Id: number; Name: string; ResourceIds: number[] } | null;
  onClose(): void;
  onSaved(): void;
}

/** Assigns resources to a role as a tree: checking a menu checks its codes. */
export function RoleResourcesDialog({ role, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [checked, setChecked] = useState<number[]>([]);
  const tree = useQuery({
    queryKey: ['resource-tree'],
    queryFn: () => call(ResourceApi.tree),
    enabled: role !== null,
  });
  useEffect(() => setChecked(role?.ResourceIds ?? []), [role]);

  async function save() {
    await call(RoleApi.setResources, { body: { Id: role!.Id, ResourceIds: checked } });
    feedback.success(t('list.saved'));
    onSaved();
    onClose();
  }

  return (
    <SaveModal
      open={role !== null}
      title={`${t('adminUi.assignResources')} · ${role?.Name ?? ''}`}
      destroyOnHidden
      okText={t('list.save')}
      onCancel={onClose}
      onSave={save}
      okTestId="resources-ok"
    >
      {tree.isLoading ? (
        <Spin />
      ) : (
        <Tree
          checkable
          defaultExpandAll
          checkStrictly
          checkedKeys={checked}
          onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(Number))}
          // Clicking a name ticks it, as the checkbox beside it does.
          selectedKeys={[]}
          onSelect={(_keys, info) => {
            const id = Number(info.node.key);
            setChecked((current) =>
              current.includes(id) ? current.filter((k) => k !== id) : [...current, id],
            );
          }}
          treeData={resourceTreeData(tree.data ?? [])}
          data-testid="resource-tree"
        />
      )}
    </SaveModal>
  );
}
