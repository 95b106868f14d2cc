import type { TFunction } from 'i18next';
import { create } from 'zustand';
import { useQuery } from '@tanstack/react-query';
import {
  ParkAreaEmergencyApi,
  type EmergencyHostNotReached,
  type ParkAreaItem,
  type ZoneEmergencyStopItem,
} from '@gatehouse/shared';
import { call } from '../../../core/api.ts';
import { queryClient } from '../../../core/query-client.ts';
import { DASHBOARD_KEY, EMERGENCY_KEY, GRID_KEY } from '../live.ts';

/**
 * A zone's emergency stop on the screens (docs/garage.md "Emergency stop"): the stops in force of the area (one
 * query, shared by every banner and kept current by the hub's `ZoneEmergency`), the zone list's stop and release
 * dialog, and the words for who acted and which chargers were not reached.
 */

/** The area's zones under emergency stop now. */
export function useEmergencyStops() {
  return useQuery({
    queryKey: EMERGENCY_KEY,
    queryFn: () => call(ParkAreaEmergencyApi.active),
  });
}

/** The dialog of the zone list: stop a zone (a reason) or release it (a note). */
export interface EmergencyTarget {
  mode: 'stop' | 'release';
  zone: Pick<ParkAreaItem, 'Id' | 'Name' | 'EmergencyStop'>;
}

export const useEmergencyDialog = create<{ target: EmergencyTarget | null }>()(() => ({ target: null }));

export const openEmergencyDialog = (target: EmergencyTarget) => useEmergencyDialog.setState({ target });
export const closeEmergencyDialog = () => useEmergencyDialog.setState({ target: null });

/** Who stopped or released it: a person by name, an API key (a fire panel) as a key. */
export function actorText(
  t: TFunction,
  name: string | null,
  kind: ZoneEmergencyStopItem['StoppedByKind'] | null,
) {
  if (name === null) return '';
  return kind === 'key' ? t('garageUi.emergency.byKey', { name }) : name;
}

/** The chargers a stop or a release did not reach, with why (empty when it reached them all). */
export function notReachedText(t: TFunction, hosts: EmergencyHostNotReached[]): string {
  return hosts
    .map((h) =>
      t('garageUi.emergency.hostNotReached', {
        host: h.HostName,
        why: t(`garageUi.emergency.notReached.${h.Outcome}`),
      }),
    )
    .join(t('garageUi.emergency.separator'));
}

/** After a stop or a release: the banners, the zone list and whatever its commands changed reload. */
export function reloadAfterEmergency(): Promise<unknown> {
  return Promise.all(
    [EMERGENCY_KEY, ['list', 'ParkArea'], ['list', 'ChargeEquipment'], GRID_KEY, DASHBOARD_KEY].map(
      (queryKey) => queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
