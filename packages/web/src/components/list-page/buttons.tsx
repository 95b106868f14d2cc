import type { ReactNode } from 'react';
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
export function ExportButton({
  loading,
  disabled,
  onClick,
}: {
  loading: boolean;
  disabled?: boolean;
  onClick(): void;
}) {
  const { t } = useTranslation();
  return (
    <Button
      icon={<DownloadOutlined />}
      loading={loading}
      disabled={disabled}
      onClick={onClick}
      data-testid="list-export"
    >
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

/** A declared row or batch action: runs on a click, or behind its confirmation question when it has one. */
export function ActionButton(props: {
  label: string;
  /** The confirmation question, already translated. */
  confirm?: string | undefined;
  danger?: boolean | undefined;
  disabled?: boolean;
  /** A row's link rather than a toolbar button. */
  link?: boolean;
  icon?: ReactNode;
  testId: string;
  onRun(): void;
}) {
  const { t } = useTranslation();
  const { label, confirm, danger, disabled, link, icon, testId, onRun } = props;
  const button = (
    <Button
      {...(link ? { type: 'link', size: 'small' } : {})}
      danger={danger}
      icon={icon}
      disabled={disabled}
      onClick={confirm ? undefined : onRun}
      data-testid={testId}
    >
      {label}
    </Button>
  );
  if (!confirm) return button;
  return (
    <PagePopconfirm
      title={confirm}
      disabled={disabled}
      onConfirm={onRun}
      okText={t('list.confirm')}
      cancelText={t('list.cancel')}
      okButtonProps={{ danger }}
    >
      {button}
    </PagePopconfirm>
  );
}
