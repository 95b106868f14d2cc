import type {
  ChannelOption,
  DeviceChannelsOption,
  FailureHandlerItem,
  AccessControlDeviceOption,
  CardUserOption,
} from '@gatehouse/shared';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../core/http.ts';
import type { OptionSource } from '../../components/list-page/index.ts';
import { useAreaStore } from '../../stores/area.ts';

/** Choices of the access-control screens, from /api/Options/* and the fault handlers of the area. */
export type DeviceChoice = AccessControlDeviceOption;

export type ChannelChoice = ChannelOption;

export type DeviceChannels = DeviceChannelsOption;

export type HolderChoice = CardUserOption;

type Handler = FailureHandlerItem;

/** Option keys: writes on the device and channel screens reload these choices. */
export const DEVICE_OPTIONS_KEY = 'ac.devices';
export const DEVICE_MODELS_KEY = 'ac.deviceModels';
export const CHANNEL_OPTIONS_KEY = 'ac.channels';

const loadDevices = () => http.get<DeviceChoice[]>('/api/Options/AccessControlDevices');
const loadChannels = () => http.get<DeviceChannels[]>('/api/Options/AccessControlChannels');

/** The area's controllers as a select's options: name and serial number. */
export const deviceOptions: OptionSource = {
  kind: 'remote',
  key: DEVICE_OPTIONS_KEY,
  load: async () =>
    (await loadDevices()).map((d) => ({ value: d.Id, label: `${d.Name} (${d.SerialNumber})` })),
};

/** The area's enabled operator staff, who handle fault reports: name and what they do. */
export const handlerOptions: OptionSource = {
  kind: 'remote',
  key: 'ac.handlers',
  load: async () =>
    (await http.get<Handler[]>('/api/FailureDeclarationRecord/Handlers')).map((h) => ({
      value: h.Id,
      label: h.Remark ? `${h.Name}（${h.Remark}）` : h.Name,
    })),
};

/** The controllers with their model (the channel form limits door numbers by it). */
export function useDevices() {
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  return useQuery({ queryKey: ['options', DEVICE_MODELS_KEY, areaId], queryFn: loadDevices });
}

/** The channels of the area grouped by controller (granting, fault reports). */
export function useDeviceChannels(enabled = true) {
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  return useQuery({ queryKey: ['options', CHANNEL_OPTIONS_KEY, areaId], queryFn: loadChannels, enabled });
}

/** Holders of the area matching a name, phone or card number (at most 50), for pickers. */
export function useHolderSearch(keyword: string) {
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  return useQuery({
    queryKey: ['ac-holder-search', areaId, keyword],
    queryFn: () =>
      http.get<HolderChoice[]>('/api/Options/CardUsers', { query: keyword ? { Keyword: keyword } : {} }),
    staleTime: 10_000,
  });
}
