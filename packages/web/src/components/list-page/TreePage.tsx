import { useState, type ReactNode } from 'react';
import { Button, Card, Space, Table, Typography } from 'antd';
import { PagePopconfirm } from '../PageModal.tsx';
import type { ColumnsType } from 'antd/es/table';
import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  PlusOutlined,
  SubnodeOutlined,
} from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../app/http.ts';
import { feedback } from '../../app/feedback.tsx';
import { useAreaStore } from '../../stores/area.ts';
import { useSessionStore } from '../../stores/session.ts';
import { EnumCell, InstantCell } from './cells.tsx';
import { exportList } from './export-job.ts';
import { FormDialog } from './FormDialog.tsx';
import { canUse } from './permissions.ts';
import type { ColumnDef, FormDef, Row } from './types.ts';
import './list-page.css';

export interface TreeRow extends Row {
  Children: TreeRow[];
}

export interface TreePageConfig<T extends TreeRow> {
  /** The resource for create (POST), update (PUT), delete and export: /api/{resource}. */
  resource: string;
  /** The endpoint returning the whole tree. */
  treeUrl: string;
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
  const [editing, setEditing] = useState<{ item: T | null; defaults?: Record<string, unknown> } | null>(null);
  const [exporting, setExporting] = useState(false);

  const tree = useQuery({
    queryKey: ['tree', config.resource, areaId],
    queryFn: () => http.get<T[]>(config.treeUrl),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['tree', config.resource] });
    void queryClient.invalidateQueries({ queryKey: ['options'] });
  };
  const base = `/api/${config.resource}`;
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      'Id' in body ? http.put(base, body, { quiet: true }) : http.post(base, body, { quiet: true }),
    onSuccess: (_data, body) => {
      feedback.success(t('Id' in body ? 'list.saved' : 'list.created'));
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => http.del(`${base}/${id}`),
    onSuccess: () => {
      feedback.success(t('list.deleted', { count: 1 }));
      refresh();
    },
  });

  const columns: ColumnsType<TableRow<T>> = config.columns.map((c) => ({
    key: c.key,
    dataIndex: c.key,
    title: t(c.title),
    width: c.width,
    render: (_value: unknown, row: T) => {
      if (c.render) return c.render(row, (key, options) => String(t(key, options as never)));
      const value = row[c.key];
      if (c.kind === 'instant') return <InstantCell value={value} />;
      if (c.kind === 'enum' && c.enumDef) return <EnumCell def={c.enumDef} value={value} />;
      return value === null || value === undefined || value === '' ? (
        <Typography.Text type="secondary">-</Typography.Text>
      ) : (
        String(value)
      );
    },
  }));
  if (canWrite) {
    columns.push({
      key: '__actions',
      title: t('list.actions'),
      width: 260,
      render: (_value, row) => (
        <Space size={4} wrap>
          {(config.canAddChild?.(row) ?? true) && (
            <Button
              type="link"
              size="small"
              icon={<SubnodeOutlined />}
              onClick={() => setEditing({ item: null, defaults: { [config.parentField]: row.Id } })}
              data-testid="row-add-child"
            >
              {t('adminUi.addChild')}
            </Button>
          )}
          {(config.canEdit?.(row) ?? true) && (
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              onClick={() => setEditing({ item: row })}
              data-testid="row-edit"
            >
              {t('list.edit')}
            </Button>
          )}
          {(config.canDelete?.(row) ?? true) && (
            <PagePopconfirm
              title={t('list.confirmDelete')}
              onConfirm={() => remove.mutate(row.Id)}
              okText={t('list.confirm')}
              cancelText={t('list.cancel')}
              okButtonProps={{ danger: true }}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid="row-delete">
                {t('list.delete')}
              </Button>
            </PagePopconfirm>
          )}
        </Space>
      ),
    });
  }

  async function startExport() {
    setExporting(true);
    try {
      const job = await exportList(config.resource, {}, () => undefined);
      if (job.Status === 'done') feedback.success(t('list.exportDone', { rows: job.RowCount }));
    } catch {
      // The request client has shown the reason.
    } finally {
      setExporting(false);
    }
  }

  return (
    <Card className="list-page" data-testid={config.testId ?? `tree-${config.resource}`}>
      {header}
      <div className="list-page-toolbar">
        <Space>
          {canWrite && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing({ item: null })}
              data-testid="list-create"
            >
              {t('list.create')}
            </Button>
          )}
        </Space>
        {config.exportable && canUse(roles, config.read) && (
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            onClick={() => void startExport()}
            data-testid="list-export"
          >
            {t('list.export')}
          </Button>
        )}
      </div>
      <Table<TableRow<T>>
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
      <FormDialog<T>
        open={editing !== null}
        item={editing?.item ?? null}
        defaults={editing?.defaults}
        title={`${t(editing?.item ? 'list.edit' : 'list.create')} · ${title}`}
        form={config.form}
        onClose={() => setEditing(null)}
        onSubmit={(body) => save.mutateAsync(body)}
      />
    </Card>
  );
}
