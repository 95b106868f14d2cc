import type { time as zh } from '../zh/time.ts';

export const time: Record<keyof typeof zh, string> = {
  justNow: 'just now',
  minutesAgo_one: '{{count}} minute ago',
  minutesAgo_other: '{{count}} minutes ago',
  hoursAgo_one: '{{count}} hour ago',
  hoursAgo_other: '{{count}} hours ago',
  oneDayAgo: '1 day ago',
};
