import type { time as zh } from '../zh/time.ts';

export const time: Record<keyof typeof zh, string> = {
  justNow: 'たった今',
  minutesAgo_one: '{{count}} 分前',
  minutesAgo_other: '{{count}} 分前',
  hoursAgo_one: '{{count}} 時間前',
  hoursAgo_other: '{{count}} 時間前',
  oneDayAgo: '1 日前',
};
