import { create } from 'zustand';
import { AREA_STORAGE_KEY, parseCustom, type AreaInfoDetail } from '@gatehouse/shared';

/** An area as the API gives it (Custom as JSON text). */
export type AreaSummary = AreaInfoDetail;

/** An area as the app uses it: Custom parsed (null when it is not valid JSON). */
export interface Area {
  Id: number;
  Name: string;
  Custom: Record<string, unknown> | null;
}

interface AreaState {
  areas: Area[];
  current: Area | null;
  /** Grows on every change of area: the main content is keyed on it, so it re-mounts. */
  version: number;
  /** Picks the remembered area when it is still permitted, else the first; false when there is none. */
  init(list: readonly AreaSummary[]): boolean;
  select(area: AreaSummary): void;
  clear(): void;
}

export function toArea(a: AreaSummary): Area {
  return { Id: a.Id, Name: a.Name, Custom: parseCustom(a.Custom) };
}

export function rememberedAreaId(): number | null {
  const raw = localStorage.getItem(AREA_STORAGE_KEY);
  return raw !== null && /^\d+$/.test(raw) ? Number(raw) : null;
}

export const useAreaStore = create<AreaState>()((set) => ({
  areas: [],
  current: null,
  version: 0,
  init: (list) => {
    const areas = list.map(toArea);
    const remembered = rememberedAreaId();
    const current = areas.find((a) => a.Id === remembered) ?? areas[0] ?? null;
    if (current) localStorage.setItem(AREA_STORAGE_KEY, String(current.Id));
    set((s) => ({ areas, current, version: s.version + 1 }));
    return current !== null;
  },
  select: (area) => {
    localStorage.setItem(AREA_STORAGE_KEY, String(area.Id));
    set((s) => ({
      current: toArea(area),
      areas: s.areas.map((a) => (a.Id === area.Id ? toArea(area) : a)),
      version: s.version + 1,
    }));
  },
  clear: () => set((s) => ({ areas: [], current: null, version: s.version + 1 })),
}));
