import { lazy, Suspense, useState } from 'react';
import { Badge, Button, Tooltip } from 'antd';
import { BugOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useErrorLogStore } from '../../stores/error-log.ts';

// The dialog (an antd Table) loads when first opened, not with the layout.
const ErrorLogDialog = lazy(() => import('../../components/ErrorLogDialog.tsx'));

/** The error-log indicator: shown once an error was collected; opens the error-log dialog. */
export function ErrorLogButton() {
  const { t } = useTranslation();
  const count = useErrorLogStore((s) => s.logs.length);
  const [open, setOpen] = useState(false);
  return (
    <>
      {count > 0 && (
        <Tooltip title={t('navbar.errorLog')} placement="bottom">
          <Badge count={count} size="small" offset={[-4, 4]}>
            <Button
              type="text"
              danger
              icon={<BugOutlined />}
              aria-label={t('navbar.errorLog')}
              data-testid="error-log-button"
              onClick={() => setOpen(true)}
            />
          </Badge>
        </Tooltip>
      )}
      {open && (
        <Suspense fallback={null}>
          <ErrorLogDialog open onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
