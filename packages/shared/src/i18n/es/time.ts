import type { time as zh } from '../zh/time.ts';

export const time: Record<keyof typeof zh, string> = {
  justNow: 'justo ahora',
  minutesAgo_one: 'hace {{count}} minuto',
  minutesAgo_other: 'hace {{count}} minutos',
  hoursAgo_one: 'hace {{count}} hora',
  hoursAgo_other: 'hace {{count}} horas',
  oneDayAgo: 'hace 1 día',
};
