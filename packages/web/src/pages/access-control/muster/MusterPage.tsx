import { useState } from 'react';
import { Button, Empty, Tabs } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { OccupancySummary } from '@gatehouse/shared';
import { formatSiteTime } from '../../../core/site-time.ts';
import { useAreaStore } from '../../../stores/area.ts';
import { MusterHistory } from './MusterHistory.tsx';
import { InsideList, OccupancyHeader } from './OccupancyPanel.tsx';
import { RollCall } from './RollCall.tsx';
import { StartMusterDialog } from './StartMusterDialog.tsx';
import { MUSTER_KEY, SUMMARY_KEY, useMuster, useMusterLive, useOccupancySummary } from './muster-live.ts';
import '../access-control.css';
import './muster.css';

type Tab = 'inside' | 'roll' | 'history';

/** A past roll call's result, with the way back to the one under way. */
function PastRollCall({ id, onBack }: { id: number; onBack?: () => void }) {
  const { t } = useTranslation();
  const muster = useMuster(id);
  return (
    <>
      {onBack && (
        <Button type="link" onClick={onBack} data-testid="muster-back">
          {t('musterUi.roll.backToCurrent')}
        </Button>
      )}
      {muster.data && (
        <div className="muster-viewing">
          {t('musterUi.roll.viewing', { time: formatSiteTime(muster.data.StartedAt) })}
        </div>
      )}
      <RollCall musterId={id} />
    </>
  );
}

/**
 * Who is inside and roll calls (Admin or User of the area; docs/access-control.md, "Occupancy and muster"): how
 * many are inside now and who, the reset hour; a roll call started of everyone inside, its missing count falling
 * live as people are marked safe here or swipe at a muster point, ended with a note and exported; the past ones.
 */
export default function MusterPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const summary = useOccupancySummary();
  useMusterLive();
  const [tab, setTab] = useState<Tab>();
  const [starting, setStarting] = useState(false);
  /** A past roll call opened from the history, instead of the one under way. */
  const [viewing, setViewing] = useState<number | null>(null);
  const active = summary.data?.Muster?.Id ?? null;
  const shown = viewing ?? active;
  const current: Tab = tab ?? (active !== null ? 'roll' : 'inside');

  const rollCall =
    shown === null ? (
      <Empty description={t('musterUi.roll.none')} data-testid="muster-none">
        {t('musterUi.roll.noneHint')}
      </Empty>
    ) : viewing !== null && viewing !== active ? (
      <PastRollCall id={viewing} onBack={active !== null ? () => setViewing(null) : undefined} />
    ) : (
      // Once ended here, its result stays on screen (as a past roll call) rather than "none under way".
      <RollCall musterId={shown} onEnded={(id) => setViewing(id)} />
    );

  return (
    <div className="muster-page" data-testid="muster-page">
      <OccupancyHeader summary={summary.data} onStart={() => setStarting(true)} />
      <Tabs
        activeKey={current}
        onChange={(key) => setTab(key as Tab)}
        destroyOnHidden
        items={[
          { key: 'inside', label: t('musterUi.tabs.inside'), children: <InsideList /> },
          { key: 'roll', label: t('musterUi.tabs.rollCall'), children: rollCall },
          {
            key: 'history',
            label: t('musterUi.tabs.history'),
            children: (
              <MusterHistory
                onView={(id) => {
                  setViewing(id);
                  setTab('roll');
                }}
              />
            ),
          },
        ]}
      />
      {areaId !== null && (
        <StartMusterDialog
          open={starting}
          areaId={areaId}
          inside={summary.data?.Inside}
          onClose={() => setStarting(false)}
          onStarted={(muster) => {
            setStarting(false);
            setViewing(null);
            setTab('roll');
            queryClient.setQueryData([MUSTER_KEY, muster.Id], muster);
            // Under way at once, before the summary is asked again.
            queryClient.setQueriesData<OccupancySummary>({ queryKey: [SUMMARY_KEY] }, (s) =>
              s ? { ...s, Muster: { ...muster } } : s,
            );
            void queryClient.invalidateQueries({ queryKey: [SUMMARY_KEY] });
          }}
        />
      )}
    </div>
  );
}
