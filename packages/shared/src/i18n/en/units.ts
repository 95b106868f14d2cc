import type { units as zh } from '../zh/units.ts';

export const units: Record<keyof typeof zh, string> = {
  hour: 'hour',
  kWh: 'kWh',
  times: 'use',
};
