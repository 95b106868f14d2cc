import { Button, Tooltip } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LanguagePicker } from '../../components/LanguagePicker.tsx';
import { useAppStore } from '../../stores/app.ts';
import { AreaSwitcher } from './AreaSwitcher.tsx';
import { AvatarMenu } from './AvatarMenu.tsx';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { ErrorLogButton } from './ErrorLogButton.tsx';
import { FullscreenButton } from './FullscreenButton.tsx';
import { MenuSearch } from './MenuSearch.tsx';
import { SizePicker } from './SizePicker.tsx';

/** The top bar (spec section 2): breadcrumb on the left, tools on the right (fewer on mobile). */
export function Navbar() {
  const { t } = useTranslation();
  const mobile = useAppStore((s) => s.device === 'mobile');
  const opened = useAppStore((s) => (mobile ? s.drawerOpened : s.sidebarOpened));
  const toggleSidebar = useAppStore((s) => s.toggleSidebar);
  const setDrawer = useAppStore((s) => s.setDrawer);
  return (
    <div className="navbar" data-testid="navbar">
      <Tooltip title={t('navbar.toggleSidebar')} placement="bottom">
        <Button
          type="text"
          className="hamburger"
          aria-label={t('navbar.toggleSidebar')}
          aria-expanded={opened}
          icon={opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
          onClick={() => (mobile ? setDrawer(!opened) : toggleSidebar())}
        />
      </Tooltip>
      <Breadcrumbs />
      <div className="right-menu">
        {!mobile && <MenuSearch />}
        <ErrorLogButton />
        {!mobile && <FullscreenButton />}
        {!mobile && <SizePicker />}
        <LanguagePicker />
        <AreaSwitcher />
        <AvatarMenu />
      </div>
    </div>
  );
}
