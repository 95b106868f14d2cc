import { useEffect, useMemo, useRef } from 'react';
import { Dropdown, theme, type MenuProps } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import { Link, useNavigate } from 'react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { TAB_MENU_WIDTH } from '@gatehouse/shared';
import { flattenRoutes } from '../app/route-utils.ts';
import { useRouteChain } from '../app/use-route-chain.ts';
import { useSessionStore } from '../stores/session.ts';
import { fallbackPath, useTabsStore, type TabView } from '../stores/tabs.ts';
import { aliveRef } from './keep-alive.ts';

type Action = 'refresh' | 'close' | 'closeOthers' | 'closeAll';

/** Pinned tabs (affix routes, the dashboard) open with the layout. */
function useAffixTabs() {
  const permitted = useSessionStore((s) => s.permitted);
  const add = useTabsStore((s) => s.add);
  useEffect(() => {
    for (const chain of flattenRoutes(permitted)) {
      const route = chain[chain.length - 1]!;
      if (route.affix && route.page) {
        add({
          name: route.name,
          path: route.path,
          fullPath: route.path,
          titleKey: route.titleKey,
          affix: true,
          noCache: route.noCache === true,
        });
      }
    }
  }, [permitted, add]);
}

/** What the tab menu's actions do to the tabs, the kept-alive pages and the current route. */
function useTabAction(active: string | undefined) {
  const navigate = useNavigate();
  const store = useTabsStore;

  function dropCaches(before: readonly TabView[], after: readonly TabView[]) {
    const gone = before.filter((v) => !after.includes(v)).map((v) => v.name);
    if (gone.length) void aliveRef.current?.destroy(gone);
  }

  return function run(action: Action, view: TabView) {
    const before = store.getState().views;
    switch (action) {
      case 'refresh':
        if (view.name !== active) navigate(view.fullPath);
        aliveRef.current?.refresh(view.name);
        return;
      case 'close': {
        if (view.affix) return;
        const after = store.getState().close(view.name);
        dropCaches(before, after);
        if (view.name === active) navigate(fallbackPath(after));
        return;
      }
      case 'closeOthers': {
        const after = store.getState().closeOthers(view.name);
        dropCaches(before, after);
        if (view.name !== active) navigate(view.fullPath);
        return;
      }
      case 'closeAll': {
        const after = store.getState().closeAll();
        dropCaches(before, after);
        if (!after.some((v) => v.name === active)) navigate(fallbackPath(after));
        return;
      }
    }
  };
}

/** A tab's right-click menu. */
function tabMenu(view: TabView, t: TFunction, run: (action: Action, view: TabView) => void): MenuProps {
  const items: { key: Action; label: string; disabled?: boolean }[] = [
    { key: 'refresh', label: t('tagsView.refresh') },
    { key: 'close', label: t('tagsView.close'), disabled: view.affix },
    { key: 'closeOthers', label: t('tagsView.closeOthers') },
    { key: 'closeAll', label: t('tagsView.closeAll') },
  ];
  return {
    items,
    style: { width: TAB_MENU_WIDTH },
    onClick: ({ key }) => run(key as Action, view),
    className: 'tags-view-menu',
  };
}

/** Visited pages as tabs, with the right-click menu of spec section 2 (refresh, close, close others, close all). */
export function TagsView() {
  useAffixTabs();
  const { t } = useTranslation();
  const views = useTabsStore((s) => s.views);
  const active = useRouteChain().at(-1)?.name;
  const activeRef = useRef<HTMLAnchorElement>(null);
  const { token } = theme.useToken();

  // The visited page's tab is added after the route changes: scroll to it once it is in the bar too (with
  // `active` alone, a page opened for the first time left its tab out of view at the bar's end).
  const activeShown = views.some((v) => v.name === active);
  useEffect(() => {
    activeRef.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [active, activeShown]);

  const ordered = useMemo(() => [...views.filter((v) => v.affix), ...views.filter((v) => !v.affix)], [views]);

  const run = useTabAction(active);

  return (
    <nav className="tags-view" data-testid="tags-view">
      <div className="tags-view-scroll">
        {ordered.map((view) => {
          const isActive = view.name === active;
          return (
            <Dropdown key={view.name} trigger={['contextMenu']} menu={tabMenu(view, t, run)}>
              <Link
                to={view.fullPath}
                ref={isActive ? activeRef : undefined}
                className={isActive ? 'tags-view-item active' : 'tags-view-item'}
                data-tab={view.name}
                data-affix={view.affix}
                style={
                  isActive ? { background: token.colorPrimary, borderColor: token.colorPrimary } : undefined
                }
              >
                {t(view.titleKey)}
                {!view.affix && (
                  <CloseOutlined
                    className="tags-view-close"
                    aria-label={t('tagsView.close')}
                    onClick={(event) => {
                      event.preventDefault();
                      event.stopPropagation();
                      run('close', view);
                    }}
                  />
                )}
              </Link>
            </Dropdown>
          );
        })}
      </div>
    </nav>
  );
}
