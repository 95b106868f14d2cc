import type { units as zh } from '../zh/units.ts';

export const units: Record<keyof typeof zh, string> = {
  hour: '時間',
  kWh: 'kWh',
  times: '回',
};
