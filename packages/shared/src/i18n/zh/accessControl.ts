/** Access control (门禁): screen titles, field labels and messages shared by server and web. */
export const accessControl = {} as const;
