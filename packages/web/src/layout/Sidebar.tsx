import { useEffect, useMemo, useState } from 'react';
import { ConfigProvider, Menu } from 'antd';
import { useTranslation } from 'react-i18next';
import { LOGO_PATH, MENU_COLORS } from '@gatehouse/shared';
import { Link } from 'react-router';
import { useRouteChain } from '../app/use-route-chain.ts';
import { useSessionStore } from '../stores/session.ts';
import { useSettingsStore } from '../stores/settings.ts';
import { sidebarItems } from './sidebar-items.tsx';

const menuTheme = {
  components: {
    Menu: {
      darkItemBg: MENU_COLORS.background,
      darkSubMenuItemBg: '#1f2d3d',
      darkPopupBg: MENU_COLORS.background,
      darkItemColor: MENU_COLORS.text,
      darkItemHoverColor: '#ffffff',
      darkItemHoverBg: '#263445',
      darkItemSelectedColor: MENU_COLORS.active,
      darkItemSelectedBg: '#263445',
      itemBorderRadius: 0,
      itemMarginInline: 0,
      itemMarginBlock: 0,
      // Room for English titles on one line in the 210 px sidebar (issue 27): a smaller indent and icon gap.
      iconMarginInlineEnd: 8,
    },
  },
};

/** The menu of permitted routes (spec section 2, "Layout"), with the optional logo on top. */
export function Sidebar({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const permitted = useSessionStore((s) => s.permitted);
  const showLogo = useSettingsStore((s) => s.sidebarLogo);
  const chain = useRouteChain();
  const items = useMemo(() => sidebarItems(permitted, t), [permitted, t]);
  const selected = chain.at(-1)?.name;
  const ancestors = useMemo(() => chain.slice(0, -1).map((r) => r.name), [chain]);
  const [openKeys, setOpenKeys] = useState<string[]>(ancestors);

  // Navigating (by tab, search or breadcrumb) opens the group of the new page without closing others.
  useEffect(() => {
    setOpenKeys((keys) => [...new Set([...keys, ...ancestors])]);
  }, [ancestors]);

  return (
    <div className="sidebar" data-testid="sidebar">
      {showLogo && (
        <Link to="/" className="sidebar-logo">
          <img src={LOGO_PATH} alt="" />
          {!collapsed && <h1>{t('app.sidebarTitle')}</h1>}
        </Link>
      )}
      <ConfigProvider theme={menuTheme}>
        <Menu
          mode="inline"
          theme="dark"
          inlineCollapsed={collapsed}
          items={items}
          selectedKeys={selected ? [selected] : []}
          {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
          forceSubMenuRender
          inlineIndent={16}
        />
      </ConfigProvider>
    </div>
  );
}
