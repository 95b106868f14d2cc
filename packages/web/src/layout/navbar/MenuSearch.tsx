import { lazy, Suspense, useState } from 'react';
import { Button, Tooltip } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

// The box (fuse.js, the search items, pinyin when asked for) loads when the search first opens.
const MenuSearchBox = lazy(() => import('./MenuSearchBox.tsx'));

/** The search icon of the navbar; opens the fuzzy menu search. */
export function MenuSearch() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div className={open ? 'header-search show' : 'header-search'}>
      <Tooltip title={t('navbar.search')} placement="bottom">
        <Button
          type="text"
          icon={<SearchOutlined />}
          aria-label={t('navbar.search')}
          data-testid="menu-search-button"
          onClick={() => setOpen(!open)}
        />
      </Tooltip>
      {open && (
        <Suspense fallback={null}>
          <MenuSearchBox onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
