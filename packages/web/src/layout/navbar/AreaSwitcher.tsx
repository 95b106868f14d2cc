import { useState } from 'react';
import { App, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { AreaInfoApi } from '@gatehouse/shared';
import { call } from '../../core/api.ts';
import { queryClient } from '../../core/query-client.ts';
import { RequestError } from '../../core/request.ts';
import { useAreaStore } from '../../stores/area.ts';

/**
 * The area switcher (spec section 4): the chosen area's detail is fetched; on success it becomes current
 * and is remembered, and the content re-mounts with fresh data; otherwise the selection stays as it was.
 */
export function AreaSwitcher() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const areas = useAreaStore((s) => s.areas);
  const current = useAreaStore((s) => s.current);
  const select = useAreaStore((s) => s.select);
  const [switching, setSwitching] = useState(false);

  async function change(id: number) {
    if (id === current?.Id) return;
    setSwitching(true);
    try {
      const area = await call(AreaInfoApi.get, { params: { Id: id } }, { quiet: true });
      // Data of the previous area must not show for a moment in the new one.
      queryClient.removeQueries();
      select(area);
    } catch (error) {
      // A refused detail says so; a network failure was already reported by the client (spec section 8).
      if (error instanceof RequestError && error.code !== 0 && error.code !== 401 && error.code !== 402) {
        void message.error(t('area.queryFailed'));
      }
    } finally {
      setSwitching(false);
    }
  }

  if (areas.length === 0) return null;
  return (
    <label className="area-switcher">
      <span className="area-switcher-label">{t('area.switch')}</span>
      <Select
        value={current?.Id}
        placeholder={t('area.placeholder')}
        loading={switching}
        disabled={switching}
        onChange={(id: number) => void change(id)}
        options={areas.map((a) => ({ value: a.Id, label: a.Name }))}
        popupMatchSelectWidth={false}
        data-testid="area-switcher"
        aria-label={t('area.switch')}
        style={{ minWidth: 120, maxWidth: 200 }}
      />
    </label>
  );
}
