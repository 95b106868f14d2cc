import {
  Button,
  Card,
  DatePicker,
  Empty,
  Pagination,
  Popconfirm,
  Radio,
  Space,
  Table,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDate, LANGUAGES, type Lang } from '@gatehouse/shared';
import { changeLanguage, LANGUAGE_NAMES } from '../../core/language.ts';
import { useAppStore } from '../../stores/app.ts';
import { useSessionStore } from '../../stores/session.ts';

/** Shows the catalogues and antd's locale at work in the current language. */
export default function I18nDemoPage() {
  const { t } = useTranslation();
  const language = useAppStore((s) => s.language);
  const name = useSessionStore((s) => s.name);
  return (
    <Card title={t('i18nDemo.title')} data-testid="i18n-demo">
      <Typography.Paragraph>{t('i18nDemo.intro')}</Typography.Paragraph>
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        <div>
          <Typography.Text strong>{t('i18nDemo.language')}: </Typography.Text>
          <Radio.Group
            value={language}
            optionType="button"
            onChange={(event) => void changeLanguage(event.target.value as Lang)}
            options={LANGUAGES.map((lang) => ({ value: lang, label: LANGUAGE_NAMES[lang] }))}
          />
        </div>
        <Typography.Paragraph>
          {t('i18nDemo.interpolation', { name })}
          <br />
          {t('i18nDemo.today', { date: formatDate(Date.now(), 'YYYY-MM-DD dddd') })}
        </Typography.Paragraph>
        <div>
          <Typography.Text strong>{t('i18nDemo.date')}: </Typography.Text>
          <DatePicker />
        </div>
        <div>
          <Typography.Text strong>{t('i18nDemo.pagination')}: </Typography.Text>
          <Pagination total={120} showSizeChanger showQuickJumper />
        </div>
        <div>
          <Typography.Text strong>{t('i18nDemo.confirm')}: </Typography.Text>
          <Popconfirm title={t('i18nDemo.confirmText')}>
            <Button>{t('i18nDemo.confirm')}</Button>
          </Popconfirm>
        </div>
        <div>
          <Typography.Text strong>{t('i18nDemo.empty')}: </Typography.Text>
          <Table size="small" columns={[{ title: t('profile.name'), dataIndex: 'name' }]} dataSource={[]} />
        </div>
        <Empty />
      </Space>
    </Card>
  );
}
