import {
  AccessControlOptionsApi,
  CardUserLinkChannelApi,
  FailureDeclarationRecordApi,
  PAGE_SIZE_MAX,
  type AccessControlDeviceOption,
  type CardUserOption,
  type ChannelOption,
  type DeviceChannelsOption,
  type EnumDef,
} from '@gatehouse/shared';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../core/api.ts';
import type { FieldDef, FilterDef, OptionSource, TKey } from '../../components/list-page/index.ts';
import { useAreaStore } from '../../stores/area.ts';

/** Choices of the access-control screens: the area's controllers, channels, holders and fault handlers. */
export type DeviceChoice = AccessControlDeviceOption;

export type ChannelChoice = ChannelOption;

export type DeviceChannels = DeviceChannelsOption;

export type HolderChoice = CardUserOption;

/** Option keys: writes on the device and channel screens reload these choices. */
export const DEVICE_OPTIONS_KEY = 'ac.devices';
export const DEVICE_MODELS_KEY = 'ac.deviceModels';
export const CHANNEL_OPTIONS_KEY = 'ac.channels';

const loadDevices = () => call(AccessControlOptionsApi.devices);
const loadChannels = () => call(AccessControlOptionsApi.channels);

/** The area's controllers as a select's options: name and serial number. */
export const deviceOptions: OptionSource = {
  kind: 'remote',
  key: DEVICE_OPTIONS_KEY,
  load: async () =>
    (await loadDevices()).map((d) => ({ value: d.Id, label: `${d.Name} (${d.SerialNumber})` })),
};

/** A filter on one value of an enumeration (a status, a type, a door…). */
export function enumFilter(name: string, label: TKey, def: EnumDef, width?: number): FilterDef {
  return { name, label, kind: 'select', options: { kind: 'enum', def }, ...(width ? { width } : {}) };
}

/** The device filter of the access-control lists. */
export const deviceFilter: FilterDef = {
  name: 'DeviceId',
  label: 'accessControl.field.DeviceName',
  kind: 'select',
  options: deviceOptions,
  width: 220,
};

/** A device of the area, chosen in a form. */
export const deviceField: FieldDef = {
  name: 'DeviceId',
  label: 'accessControl.field.DeviceName',
  kind: 'select',
  required: true,
  options: deviceOptions,
};

/** The area's enabled operator staff, who handle fault reports: name and what they do. */
export const handlerOptions: OptionSource = {
  kind: 'remote',
  key: 'ac.handlers',
  load: async () =>
    (await call(FailureDeclarationRecordApi.handlers)).map((h) => ({
      value: h.Id,
      label: h.Remark ? `${h.Name}（${h.Remark}）` : h.Name,
    })),
};

/** The query key of the area's controllers with their model (the channel form limits door numbers by it). */
export const deviceModelsKey = (areaId: number | null) => ['options', DEVICE_MODELS_KEY, areaId];

/** The controllers with their model (the channel form limits door numbers by it). */
export function useDevices() {
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  return useQuery({ queryKey: deviceModelsKey(areaId), queryFn: loadDevices });
}

/** The channels of the area grouped by controller (granting, fault reports). */
export function useDeviceChannels(enabled = true) {
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  return useQuery({ queryKey: ['options', CHANNEL_OPTIONS_KEY, areaId], queryFn: loadChannels, enabled });
}

/** Every channel a holder is authorised on now (revoked ones aside): ChannelId → its authorisation. */
async function loadHolderGrants(cardUserId: number) {
  const granted = new Map<number, { IssueStatus: number; ValidTo: string }>();
  // A holder rarely has more than a page; the pages are read until the total is reached (at most 20).
  for (let page = 1; page <= 20; page++) {
    const { Items, Total } = await call(CardUserLinkChannelApi.list, {
      query: { CardUserId: cardUserId, Revoked: false, PageIndex: page, PageSize: PAGE_SIZE_MAX },
    });
    for (const a of Items) granted.set(a.ChannelId, { IssueStatus: a.IssueStatus, ValidTo: a.ValidTo });
    if (page * PAGE_SIZE_MAX >= Total) break;
  }
  return granted;
}

/** The channels a holder already has (the grant dialog marks them), loaded once a holder is chosen. */
export function useHolderGrants(cardUserId: number | undefined) {
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  return useQuery({
    queryKey: ['ac-holder-grants', areaId, cardUserId],
    queryFn: () => loadHolderGrants(cardUserId!),
    enabled: cardUserId !== undefined,
  });
}

/** Holders of the area matching a name, phone or card number (at most 50), for pickers. */
export function useHolderSearch(keyword: string) {
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  return useQuery({
    queryKey: ['ac-holder-search', areaId, keyword],
    queryFn: () => call(AccessControlOptionsApi.cardUsers, { query: keyword ? { Keyword: keyword } : {} }),
    staleTime: 10_000,
  });
}
