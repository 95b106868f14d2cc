import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PassSaleDialog } from '../monthly-pass/PassSaleDialog.tsx';
import { PassesList } from '../monthly-pass/PassesList.tsx';
import { RenewDialog } from '../monthly-pass/RenewDialog.tsx';
import { VehiclesList } from '../vehicle/VehiclesList.tsx';
import { ZonesList } from './ZonesList.tsx';

const TABS = ['zones', 'vehicles', 'passes'] as const;
type Tab = (typeof TABS)[number];

/**
 * The garage's landing screen (spec parkArea): parking zones, and beside them the vehicles and monthly
 * passes that park in them. The spec's menu has no entries for vehicles and passes; this is where an
 * operator managing parking looks for them (`?tab=vehicles` or `?tab=passes` opens one directly). A pass is
 * sold from either tab and renewed from the passes: their dialogs are the screen's.
 */
export default function ParkAreasPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  // The address holds the tab, so a link (or the tab bar's refresh) opens the same one, also when this
  // page is kept alive in its tab.
  const active: Tab = TABS.includes(asked as Tab) ? (asked as Tab) : 'zones';
  return (
    <>
      <Tabs
        activeKey={active}
        onChange={(key) => setParams(key === 'zones' ? {} : { tab: key }, { replace: true })}
        className="garage-tabs"
        data-testid="park-area-tabs"
        items={[
          { key: 'zones', label: t('garage.title.parkArea'), children: <ZonesList /> },
          { key: 'vehicles', label: t('garage.title.vehicle'), children: <VehiclesList /> },
          { key: 'passes', label: t('garage.title.monthlyPass'), children: <PassesList /> },
        ]}
      />
      <PassSaleDialog />
      <RenewDialog />
    </>
  );
}
