/** Small words shared by every screen and message. */
export const common = {
  listSeparator: '、',
} as const;
