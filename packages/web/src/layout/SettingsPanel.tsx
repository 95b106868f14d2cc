import { lazy, Suspense, useState } from 'react';
import { Button } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SETTINGS_BUTTON_TOP } from '@gatehouse/shared';
import { useSettingsStore } from '../stores/settings.ts';

// The panel (colour picker and all) loads when first opened, then stays mounted for its animations.
const SettingsDrawer = lazy(() => import('./SettingsDrawer.tsx'));

/** The button at the right edge, 90 px from the top, that opens the settings panel. */
export function SettingsPanel() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const showSettings = useSettingsStore((s) => s.showSettings);
  if (!showSettings) return null;
  return (
    <>
      <Button
        type="primary"
        className="right-panel-button"
        style={{ top: SETTINGS_BUTTON_TOP }}
        icon={<SettingOutlined />}
        aria-label={t('settings.open')}
        data-testid="settings-button"
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
      />
      {loaded && (
        <Suspense fallback={null}>
          <SettingsDrawer open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
