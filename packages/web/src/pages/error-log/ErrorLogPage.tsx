import { useState } from 'react';
import { Button, Card, Space, Typography } from 'antd';
import { BugOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ErrorBoundary } from '../../components/ErrorBoundary.tsx';
import ErrorLogDialog from '../../components/ErrorLogDialog.tsx';
import { useErrorLogStore } from '../../stores/error-log.ts';

/** A deliberate fault, as the template's demo has: it reads a property of an object it was not given. */
function BrokenWidget({ profile }: { profile?: { name: string } }) {
  return <span>{profile!.name}</span>;
}

/** The error-log page: a way to produce runtime errors on purpose and to open the collected log. */
export default function ErrorLogPage() {
  const { t } = useTranslation();
  const count = useErrorLogStore((s) => s.logs.length);
  const [broken, setBroken] = useState(false);
  const [open, setOpen] = useState(false);
  return (
    <Card title={t('route.errorLog')} data-testid="error-log-page">
      <Typography.Paragraph>{t('errorLogPage.intro')}</Typography.Paragraph>
      <Space wrap>
        <Button
          danger
          icon={<BugOutlined />}
          onClick={() => setBroken(true)}
          data-testid="trigger-render-error"
        >
          {t('errorLogPage.renderError')}
        </Button>
        <Button
          danger
          onClick={() => {
            // Thrown outside React's rendering: only the window's error handler sees it.
            setTimeout(() => {
              throw new Error('Deliberate error from an event handler (error-log demo)');
            });
          }}
          data-testid="trigger-event-error"
        >
          {t('errorLogPage.eventError')}
        </Button>
        <Button onClick={() => setOpen(true)}>{t('errorLogPage.open')}</Button>
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
        {t('errorLogPage.count', { count })}
      </Typography.Paragraph>
      <ErrorBoundary key={broken ? 'broken' : 'fine'}>{broken && <BrokenWidget />}</ErrorBoundary>
      <ErrorLogDialog open={open} onClose={() => setOpen(false)} />
    </Card>
  );
}
