import { useEffect, useMemo, useState } from 'react';
import { Select } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../stores/app.ts';
import { useSessionStore } from '../../stores/session.ts';
import { useSettingsStore } from '../../stores/settings.ts';
import { buildSearchItems, createMenuSearch, loadPinyinForms, type SearchItem } from '../menu-search.ts';

/** Pinyin matching applies in Chinese with the setting on; pinyin-pro loads only then. */
function usePinyin(enabled: boolean) {
  const [toPinyin, setToPinyin] = useState<((text: string) => string[]) | null>(null);
  useEffect(() => {
    if (!enabled || toPinyin) return;
    let alive = true;
    void loadPinyinForms().then((fn) => alive && setToPinyin(() => fn));
    return () => {
      alive = false;
    };
  }, [enabled, toPinyin]);
  return enabled ? toPinyin : null;
}

/**
 * The search box of the menu search (spec section 2): fuzzy by title in the current language, by pinyin
 * in Chinese, or by path. Loaded when the search opens.
 */
export default function MenuSearchBox({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const language = useAppStore((s) => s.language);
  const pinyinSetting = useSettingsStore((s) => s.supportPinyinSearch);
  const permitted = useSessionStore((s) => s.permitted);
  const [query, setQuery] = useState('');
  const toPinyin = usePinyin(language === 'zh' && pinyinSetting);

  const search = useMemo(
    () => createMenuSearch(buildSearchItems(permitted, (route) => t(route.titleKey), toPinyin ?? undefined)),
    [permitted, t, toPinyin],
  );
  const results = useMemo(() => search(query), [search, query]);

  function choose(item: SearchItem) {
    if (item.externalUrl) window.open(item.externalUrl, '_blank', 'noopener');
    else navigate(item.href);
    setQuery('');
    onClose();
  }

  return (
    <Select<string>
      className="header-search-select"
      showSearch={{ filterOption: false, searchValue: query, onSearch: setQuery }}
      value={null as unknown as string}
      placeholder={t('navbar.searchPlaceholder')}
      notFoundContent={query ? t('navbar.noMatch') : null}
      defaultOpen
      autoFocus
      onBlur={onClose}
      onChange={(name) => {
        const item = results.find((r) => r.name === name);
        if (item) choose(item);
      }}
      options={results.map((item) => ({ value: item.name, label: item.title.join(' > ') }))}
      data-testid="menu-search"
      popupMatchSelectWidth={280}
    />
  );
}
