/** Units that values are measured or billed in (`unit.<name>`). */
export const units = {
  hour: '小时',
  kWh: '度',
  times: '次',
} as const;
