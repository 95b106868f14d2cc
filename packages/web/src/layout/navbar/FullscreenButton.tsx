import { useEffect, useState } from 'react';
import { App, Button, Tooltip } from 'antd';
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import screenfull from 'screenfull';
import { useTranslation } from 'react-i18next';

/** Toggles full screen; warns when the browser cannot (spec section 8). */
export function FullscreenButton() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [full, setFull] = useState(screenfull.isEnabled && screenfull.isFullscreen);

  useEffect(() => {
    if (!screenfull.isEnabled) return;
    const onChange = () => setFull(screenfull.isFullscreen);
    screenfull.on('change', onChange);
    return () => screenfull.off('change', onChange);
  }, []);

  const label = full ? t('navbar.exitFullscreen') : t('navbar.fullscreen');
  return (
    <Tooltip title={label} placement="bottom">
      <Button
        type="text"
        aria-label={label}
        icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
        onClick={() => {
          if (!screenfull.isEnabled) {
            void message.warning(t('message.fullscreenUnsupported'));
            return;
          }
          void screenfull.toggle().catch(() => message.warning(t('message.fullscreenUnsupported')));
        }}
      />
    </Tooltip>
  );
}
