import { useMemo, useState } from 'react';
import { Segmented } from 'antd';
import { AppstoreOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ClearHeatAlarmDialog } from '../charge-host/ClearHeatAlarmDialog.tsx';
import { EmergencyStopBanner } from '../park-area/EmergencyStopBanner.tsx';
import { PowerOffDialog } from './PowerOffDialog.tsx';
import { RemoteStartDialog } from './RemoteStartDialog.tsx';
import { SocketGrid } from './SocketGrid.tsx';
import { SocketsTable } from './SocketsTable.tsx';

type View = 'table' | 'grid';

function idParam(params: URLSearchParams, name: string): number | undefined {
  const value = Number(params.get(name));
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/**
 * Charging sockets (spec chargeEquipment): a table with the standard actions, and a grid per host coloured
 * by state, where a forced power-off is one click away, and a session can be started for a card on a
 * connected charging-API host. A link may preset the host or zone
 * (`?ChargeHostId=8&view=grid`, `?ParkAreaId=1`).
 */
export default function ChargeSocketsPage() {
  const [params] = useSearchParams();
  // A new link while the tab is kept alive: start again from what it asks for.
  return <SocketsScreen key={params.toString()} params={params} />;
}

function SocketsScreen({ params }: { params: URLSearchParams }) {
  const { t } = useTranslation();
  const hostId = idParam(params, 'ChargeHostId');
  const zoneId = idParam(params, 'ParkAreaId');
  const [view, setView] = useState<View>(params.get('view') === 'grid' ? 'grid' : 'table');
  const preset = useMemo(
    () =>
      hostId || zoneId
        ? { ...(hostId ? { ChargeHostId: hostId } : {}), ...(zoneId ? { ParkAreaId: zoneId } : {}) }
        : undefined,
    [hostId, zoneId],
  );

  return (
    <div className="garage-sockets">
      <EmergencyStopBanner />
      <Segmented<View>
        value={view}
        onChange={setView}
        options={[
          { value: 'table', label: t('garageUi.socket.tableView'), icon: <UnorderedListOutlined /> },
          { value: 'grid', label: t('garageUi.socket.gridView'), icon: <AppstoreOutlined /> },
        ]}
        style={{ marginBottom: 12 }}
        data-testid="socket-view"
      />
      {view === 'table' ? (
        <SocketsTable initialFilters={preset} />
      ) : (
        <SocketGrid initialHostId={hostId} initialZoneId={zoneId} />
      )}
      <PowerOffDialog />
      <RemoteStartDialog />
      <ClearHeatAlarmDialog />
    </div>
  );
}
