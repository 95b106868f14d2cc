/** Words only the web app shows on the acUi screens. */
export const acUi = {} as const;
