import { useState, type ReactNode } from 'react';
import { Button, Card, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { SubnodeOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { AnyResourceApi, OperationSpec } from '@gatehouse/shared';
import { call } from '../../core/api.ts';
import { useAreaStore } from '../../stores/area.ts';
import { useSessionStore } from '../../stores/session.ts';
import { renderCell } from './cells.tsx';
import { ListExport } from './ListExport.tsx';
import { CreateButton, RowDeleteButton, RowEditButton } from './buttons.tsx';
import { EditDialog, type Editing } from './FormDialog.tsx';
import { useResourceWrites } from './mutations.ts';
import { useAccessibleTable } from '../table-a11y.ts';
import { canUse } from './permissions.ts';
import type { ColumnDef, FormDef, Row } from './types.ts';
import './list-page.css';

export interface TreeRow extends Row {
  Children: TreeRow[];
}

export interface TreePageConfig<T extends TreeRow> {
  /** The resource's operations: create, update, delete and export. */
  api: AnyResourceApi;
  /** The operation returning the whole tree. */
  tree: OperationSpec;
  read: readonly string[];
  write: readonly string[];
  columns: ColumnDef<T>[];
  form: FormDef<T>;
  /** The field that holds the parent, preset when adding a child. */
  parentField: string;
  canAddChild?(row: T): boolean;
  canDelete?(row: T): boolean;
  canEdit?(row: T): boolean;
  exportable?: boolean;
  testId?: string;
}

type TableRow<T> = T & { children?: TableRow<T>[] };

function toTableRows<T extends TreeRow>(nodes: T[]): TableRow<T>[] {
  return nodes.map((n) => ({
    ...n,
    ...(n.Children.length ? { children: toTableRows(n.Children as T[]) } : {}),
  }));
}

/**
 * A tree of records (departments, resources) as an expandable table: add a root or a child, edit
 * (which moves it when the parent changes), delete when nothing depends on it, export.
 */
export function TreePage<T extends TreeRow>({
  config,
  title,
  header,
}: {
  config: TreePageConfig<T>;
  title: string;
  header?: ReactNode;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const roles = useSessionStore((s) => s.roles);
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const canWrite = canUse(roles, config.write);
  const [editing, setEditing] = useState<Editing<T> | null>(null);
  const tableRef = useAccessibleTable(title);

  const resource = config.api.name;
  const tree = useQuery({
    queryKey: ['tree', resource, areaId],
    queryFn: () => call(config.tree) as unknown as Promise<T[]>,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['tree', resource] });
    void queryClient.invalidateQueries({ queryKey: ['options'] });
  };
  const { save, remove } = useResourceWrites({ api: config.api, onChanged: refresh });

  const columns: ColumnsType<TableRow<T>> = config.columns.map((c) => ({
    key: c.key,
    dataIndex: c.key,
    title: t(c.title),
    width: c.width,
    render: (_value: unknown, row: T) => renderCell(c, row, t),
  }));
  if (canWrite)
    columns.push(
      treeActions(config, t, {
        onAddChild: (row) => setEditing({ item: null, defaults: { [config.parentField]: row.Id } }),
        onEdit: (row) => setEditing({ item: row }),
        onRemove: (row) => remove.mutate([row.Id]),
      }),
    );

  return (
    <Card className="list-page" data-testid={config.testId ?? `tree-${resource}`}>
      {header}
      <div className="list-page-toolbar">
        <Space>{canWrite && <CreateButton onClick={() => setEditing({ item: null })} />}</Space>
        {config.exportable && canUse(roles, config.read) && (
          <Space>
            <ListExport resource={resource} query={{}} title={title} />
          </Space>
        )}
      </div>
      <Table<TableRow<T>>
        ref={tableRef}
        rowKey="Id"
        size="middle"
        columns={columns}
        dataSource={toTableRows(tree.data ?? [])}
        loading={tree.isFetching}
        pagination={false}
        expandable={{ defaultExpandAllRows: true }}
        key={tree.dataUpdatedAt}
        scroll={{ x: 'max-content' }}
      />
      <EditDialog<T>
        editing={editing}
        title={title}
        form={config.form}
        api={config.api}
        onClose={() => setEditing(null)}
        onSubmit={(body) => save.mutateAsync(body)}
      />
    </Card>
  );
}

/** The tree rows' actions: add a child, edit, delete, each where the declaration allows it. */
function treeActions<T extends TreeRow>(
  config: TreePageConfig<T>,
  t: TFunction,
  on: { onAddChild(row: T): void; onEdit(row: T): void; onRemove(row: T): void },
): ColumnsType<TableRow<T>>[number] {
  return {
    key: '__actions',
    title: t('list.actions'),
    width: 260,
    render: (_value, row: T) => (
      <Space size={4} wrap>
        {(config.canAddChild?.(row) ?? true) && (
          <Button
            type="link"
            size="small"
            icon={<SubnodeOutlined />}
            onClick={() => on.onAddChild(row)}
            data-testid="row-add-child"
          >
            {t('adminUi.addChild')}
          </Button>
        )}
        {(config.canEdit?.(row) ?? true) && <RowEditButton onClick={() => on.onEdit(row)} />}
        {(config.canDelete?.(row) ?? true) && <RowDeleteButton onConfirm={() => on.onRemove(row)} />}
      </Space>
    ),
  };
}
