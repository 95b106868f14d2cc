import { useState } from 'react';
import { Alert, Button, Space, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CardUserApi, type ImportRowError } from '@gatehouse/shared';
import { call, download } from '../../../core/api.ts';
import { DIALOG_MASK, feedback } from '../../../core/feedback.tsx';
import { RequestError } from '../../../core/request.ts';
import { PageModal } from '../../../components/PageModal.tsx';
import { useSaving } from '../../../components/use-saving.ts';

type RowError = ImportRowError;

/** Why an import was refused: the server's reason, and its report per row. */
interface Failure {
  message: string;
  rows: RowError[];
}

interface Props {
  open: boolean;
  onClose(): void;
  onImported(): void;
}

/** The server takes at most IMPORT_CONTENT_MAX (2,000,000) base64 characters: about 1.4 MB of .xlsx. */
const MAX_FILE_BYTES = 1_400_000;

function toBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/** Why the file was refused, and the report per row (row, column, message) when the server sent one. */
function ImportFailure({ failure }: { failure: Failure }) {
  const { t } = useTranslation();
  return (
    <>
      <Alert
        type="error"
        showIcon
        title={failure.message}
        description={failure.rows.length ? t('acUi.import.fixRows') : undefined}
        data-testid="import-failure"
      />
      {failure.rows.length > 0 && (
        <Table<RowError & { key: number }>
          size="small"
          rowKey="key"
          dataSource={failure.rows.map((r, key) => ({ ...r, key }))}
          pagination={{ pageSize: 8, size: 'small', hideOnSinglePage: true }}
          columns={[
            { key: 'Row', dataIndex: 'Row', title: t('acUi.import.row'), width: 70 },
            { key: 'Field', dataIndex: 'Field', title: t('acUi.import.column'), width: 140 },
            { key: 'Message', dataIndex: 'Message', title: t('acUi.import.message') },
          ]}
          data-testid="import-errors"
        />
      )}
    </>
  );
}

/**
 * Import of holders from the .xlsx template. All or nothing: when any row is wrong the server imports none
 * and answers with a report per row, shown here as a table (row, column, message) under the reason.
 */
export function ImportDialog({ open, onClose, onImported }: Props) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [busy, withBusy] = useSaving();
  const [failure, setFailure] = useState<Failure | null>(null);

  function reset() {
    setFile(null);
    setFailure(null);
  }

  async function submit() {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setFailure({ message: t('acUi.import.tooLarge'), rows: [] });
      return;
    }
    setFailure(null);
    await withBusy(async () => {
      try {
        const result = await call(
          CardUserApi.import,
          { body: { FileName: file.name, Content: await toBase64(file) } },
          { quiet: true },
        );
        feedback.success(t('accessControl.message.imported', { count: result.Imported }));
        reset();
        onImported();
      } catch (error) {
        if (error instanceof RequestError) {
          const rows = (error.data as { RowErrors?: RowError[] } | null)?.RowErrors ?? [];
          setFailure({ message: error.message, rows });
        }
      }
    });
  }

  async function template() {
    try {
      await download(CardUserApi.importTemplate, {}, `${t('accessControl.title.importTemplate')}.xlsx`);
    } catch (error) {
      if (error instanceof RequestError) feedback.error(error.message, 3);
    }
  }

  return (
    <PageModal
      open={open}
      title={t('acUi.import.title')}
      width={760}
      mask={DIALOG_MASK}
      destroyOnHidden
      confirmLoading={busy}
      okText={t('acUi.import.submit')}
      okButtonProps={{ disabled: !file, 'data-testid': 'import-ok' } as never}
      cancelText={t('list.cancel')}
      onOk={() => void submit()}
      onCancel={() => {
        reset();
        onClose();
      }}
      afterOpenChange={(visible) => !visible && reset()}
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('acUi.import.intro')}</Typography.Text>
        <Button icon={<DownloadOutlined />} onClick={() => void template()} data-testid="import-template">
          {t('acUi.import.template')}
        </Button>
        <Upload.Dragger
          accept=".xlsx"
          maxCount={1}
          fileList={file ? [{ uid: 'file', name: file.name, status: 'done' }] : []}
          beforeUpload={(picked) => {
            setFile(picked);
            setFailure(null);
            return false;
          }}
          onRemove={() => reset()}
          data-testid="import-file"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('acUi.import.drop')}</p>
        </Upload.Dragger>
        {failure && <ImportFailure failure={failure} />}
      </Space>
    </PageModal>
  );
}
