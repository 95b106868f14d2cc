import { Button } from 'antd';
import { DeleteOutlined, DownloadOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PagePopconfirm } from '../PageModal.tsx';

// The standard buttons of lists and trees, one look and one test id each wherever they show.

/** Opens the create dialog. */
export function CreateButton({ onClick }: { onClick(): void }) {
  const { t } = useTranslation();
  return (
    <Button type="primary" icon={<PlusOutlined />} onClick={onClick} data-testid="list-create">
      {t('list.create')}
    </Button>
  );
}

/** Exports what the screen shows; spins while the export runs. */
export function ExportButton({ loading, onClick }: { loading: boolean; onClick(): void }) {
  const { t } = useTranslation();
  return (
    <Button icon={<DownloadOutlined />} loading={loading} onClick={onClick} data-testid="list-export">
      {t('list.export')}
    </Button>
  );
}

/** A row's edit link. */
export function RowEditButton({ onClick }: { onClick(): void }) {
  const { t } = useTranslation();
  return (
    <Button type="link" size="small" icon={<EditOutlined />} onClick={onClick} data-testid="row-edit">
      {t('list.edit')}
    </Button>
  );
}

/** A row's delete link, behind a confirmation. */
export function RowDeleteButton({ onConfirm }: { onConfirm(): void }) {
  const { t } = useTranslation();
  return (
    <PagePopconfirm
      title={t('list.confirmDelete')}
      onConfirm={onConfirm}
      okText={t('list.confirm')}
      cancelText={t('list.cancel')}
      okButtonProps={{ danger: true }}
    >
      <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid="row-delete">
        {t('list.delete')}
      </Button>
    </PagePopconfirm>
  );
}
