import { ColorPicker, Drawer, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { THEME_PRESETS } from '@gatehouse/shared';
import { useAppStore } from '../stores/app.ts';
import { useSettingsStore, type Settings } from '../stores/settings.ts';

type Toggle = Exclude<keyof Settings, 'theme' | 'showSettings'>;

/** The settings side panel (spec section 2): theme colour, tabs, fixed header, sidebar logo, pinyin search. */
export default function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const settings = useSettingsStore();
  const language = useAppStore((s) => s.language);

  const toggles: { key: Toggle; label: string }[] = [
    { key: 'tagsView', label: t('settings.tagsView') },
    { key: 'fixedHeader', label: t('settings.fixedHeader') },
    { key: 'sidebarLogo', label: t('settings.sidebarLogo') },
    // Pinyin only means something for Chinese titles (spec section 2).
    ...(language === 'zh'
      ? [{ key: 'supportPinyinSearch' as const, label: t('settings.pinyinSearch') }]
      : []),
  ];

  return (
    <Drawer
      title={t('settings.title')}
      placement="right"
      open={open}
      onClose={onClose}
      size={300}
      className="settings-drawer"
    >
      <div className="settings-item">
        <span>{t('settings.theme')}</span>
        <ColorPicker
          value={settings.theme}
          disabledAlpha
          presets={[{ label: t('settings.theme'), colors: [...THEME_PRESETS] }]}
          onChangeComplete={(color) => settings.change('theme', color.toHexString())}
          data-testid="theme-picker"
        />
      </div>
      {toggles.map(({ key, label }) => (
        <div className="settings-item" key={key}>
          <span>{label}</span>
          <Switch
            checked={settings[key]}
            onChange={(value) => settings.change(key, value)}
            aria-label={label}
            data-setting={key}
          />
        </div>
      ))}
    </Drawer>
  );
}
