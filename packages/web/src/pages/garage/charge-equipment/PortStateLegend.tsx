import { useTranslation } from 'react-i18next';
import { chargePortState } from '@gatehouse/shared';
import type { GridSocket } from './types.ts';

/** Every port state with its colour and how many of this host's sockets are in it (zeros dimmed). */
export function PortStateLegend({ sockets }: { sockets: readonly GridSocket[] }) {
  const { t } = useTranslation();
  return (
    <div className="socket-legend" data-testid="socket-legend">
      <span className="socket-legend-title">{t('garageUi.socket.legend')}</span>
      {chargePortState.items.map((item) => {
        const count = sockets.filter((s) => s.State === item.value).length;
        return (
          <span
            key={item.value}
            className={count ? 'socket-legend-item' : 'socket-legend-item socket-legend-empty'}
            data-legend-state={item.value}
          >
            <span className="socket-legend-swatch" style={{ background: item.color }} />
            {t(item.key as never)}
            <span className="socket-legend-count">{count}</span>
          </span>
        );
      })}
    </div>
  );
}
