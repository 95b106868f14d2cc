import { Suspense, lazy, useEffect } from 'react';
import { App, Drawer } from 'antd';
import { QueryClientProvider } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { BICYCLE_ANY, MOBILE_BREAKPOINT, SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH } from '@gatehouse/shared';
import { useCan } from '../components/list-page/permissions.ts';
import { LockdownBanner } from '../components/lockdown/LockdownBanner.tsx';
import { AntdProvider } from '../core/AntdProvider.tsx';
import { queryClient } from '../core/query-client.ts';
import { useAppStore } from '../stores/app.ts';
import { useSettingsStore } from '../stores/settings.ts';
import { AppMain } from './AppMain.tsx';
import { Navbar } from './navbar/Navbar.tsx';
import { SettingsPanel } from './SettingsPanel.tsx';
import { Sidebar } from './Sidebar.tsx';
import { TagsView } from './TagsView.tsx';
import './layout.css';

/** The garage's live updates and port-fault alerts: their own chunk, for users of the garage only. */
const GarageLive = lazy(() => import('../pages/garage/GarageLive.tsx'));

// The dashboard is where a login lands: its chunk is asked for with the layout's, not after the layout has
// rendered and the area is chosen (issue 21, item 16; the same chunk the route table's import loads).
void import('../pages/dashboard/DashboardPage.tsx');

function isMobileWidth(): boolean {
  return document.body.getBoundingClientRect().width - 1 < MOBILE_BREAKPOINT;
}

/** Desktop or mobile from the window width; on mobile the drawer closes on every resize and navigation. */
function useResponsiveDevice() {
  const setDevice = useAppStore((s) => s.setDevice);
  const setDrawer = useAppStore((s) => s.setDrawer);
  const { pathname, search } = useLocation();

  useEffect(() => {
    const onResize = () => {
      if (document.hidden) return;
      const mobile = isMobileWidth();
      setDevice(mobile ? 'mobile' : 'desktop');
      if (mobile) setDrawer(false);
    };
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [setDevice, setDrawer]);

  useEffect(() => {
    setDrawer(false);
  }, [pathname, search, setDrawer]);
}

/**
 * The frame of every signed-in page. Server state (TanStack Query) and antd's <App> (for `App.useApp()`
 * in pages) are provided here, not at the root, so the login page loads neither; leaving the layout
 * (logout) drops the cached server data.
 */
export default function Layout() {
  useEffect(() => () => queryClient.clear(), []);
  return (
    <QueryClientProvider client={queryClient}>
      <AntdProvider>
        {/* Notices open below the navbar (50 px) and the tag bar (34 px): at antd's default 24 px a heat alarm
            covered the area switch and the user menu, the controls an operator reaches for next. */}
        <App notification={{ top: 92 }}>
          <Frame />
        </App>
      </AntdProvider>
    </QueryClientProvider>
  );
}

/** Sidebar (drawer on mobile), navbar, tabs, content, settings. */
function Frame() {
  useResponsiveDevice();
  const device = useAppStore((s) => s.device);
  const sidebarOpened = useAppStore((s) => s.sidebarOpened);
  const drawerOpened = useAppStore((s) => s.drawerOpened);
  const setDrawer = useAppStore((s) => s.setDrawer);
  const fixedHeader = useSettingsStore((s) => s.fixedHeader);
  const tagsView = useSettingsStore((s) => s.tagsView);
  const settingsShown = useSettingsStore((s) => s.showSettings);
  const mobile = device === 'mobile';
  const garage = useCan(BICYCLE_ANY);
  const sidebarWidth = mobile ? 0 : sidebarOpened ? SIDEBAR_WIDTH : SIDEBAR_COLLAPSED_WIDTH;

  return (
    <div className={`app-wrapper ${mobile ? 'mobile' : 'desktop'}${settingsShown ? ' settings-shown' : ''}`}>
      {mobile ? (
        <Drawer
          placement="left"
          open={drawerOpened}
          onClose={() => setDrawer(false)}
          size={SIDEBAR_WIDTH}
          closable={false}
          className="sidebar-drawer"
          styles={{ body: { padding: 0 } }}
        >
          <Sidebar collapsed={false} />
        </Drawer>
      ) : (
        <aside className="sidebar-container" style={{ width: sidebarWidth }} data-collapsed={!sidebarOpened}>
          <Sidebar collapsed={!sidebarOpened} />
        </aside>
      )}
      <div className="main-container" style={{ marginLeft: sidebarWidth }}>
        <header className={fixedHeader ? 'app-header fixed' : 'app-header'}>
          <Navbar />
          {tagsView && <TagsView />}
          {/* An area's lockdown or evacuation, on every screen of the area while it lasts (kept in view). */}
          <LockdownBanner />
        </header>
        <AppMain />
      </div>
      <SettingsPanel />
      {garage && (
        <Suspense fallback={null}>
          <GarageLive />
        </Suspense>
      )}
    </div>
  );
}
