import { useMemo, useState } from 'react';
import { App, Card, Input, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ROUTE_ICONS } from '../../layout/route-icons.tsx';
import './icons.css';

/** The icons the menus use; a click copies the component code for a route entry or a screen. */
export default function IconsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [filter, setFilter] = useState('');
  const icons = useMemo(
    () =>
      Object.entries(ROUTE_ICONS)
        .map(([name, Icon]) => ({ name, Icon, code: `<${Icon.displayName ?? name} />` }))
        .filter((icon) => `${icon.name} ${icon.code}`.toLowerCase().includes(filter.trim().toLowerCase())),
    [filter],
  );

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      void message.success(t('ui.copied', { text }));
    } catch {
      void message.info(text);
    }
  }

  return (
    <Card title={t('icons.title')} data-testid="icons-page">
      <Typography.Paragraph type="secondary">{t('icons.intro')}</Typography.Paragraph>
      <Input.Search
        allowClear
        placeholder={t('icons.filter')}
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
        style={{ maxWidth: 320, marginBottom: 16 }}
        data-testid="icons-filter"
      />
      <div className="icons-grid">
        {icons.map(({ name, Icon, code }) => (
          <Tooltip key={name} title={code}>
            <button type="button" className="icons-item" onClick={() => void copy(code)}>
              <Icon />
              <span>{name}</span>
            </button>
          </Tooltip>
        ))}
      </div>
    </Card>
  );
}
