/** Every /Bicycle screen is for both codes; configuration writes and refunds need the Admin code (docs/garage.md). */
export const BIKE_ANY = ['Bicycle/Admin', 'Bicycle/User'] as const;
export const BIKE_ADMIN = ['Bicycle/Admin'] as const;
