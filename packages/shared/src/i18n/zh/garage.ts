/** Garage (非机动车库): screen titles, field labels and messages shared by server and web. */
export const garage = {} as const;
