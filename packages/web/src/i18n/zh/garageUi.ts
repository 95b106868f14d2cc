/** Words only the web app shows on the garageUi screens. */
export const garageUi = {} as const;
