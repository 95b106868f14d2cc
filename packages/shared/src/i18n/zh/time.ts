/**
 * Relative times. Keys ending `_one`/`_other` follow i18next's plural suffixes, so i18next picks the
 * form by `count` in the web app and `relativeTime` does the same on both sides.
 */
export const time = {
  justNow: '刚刚',
  minutesAgo_one: '{{count}} 分钟前',
  minutesAgo_other: '{{count}} 分钟前',
  hoursAgo_one: '{{count}} 小时前',
  hoursAgo_other: '{{count}} 小时前',
  oneDayAgo: '1 天前',
} as const;
