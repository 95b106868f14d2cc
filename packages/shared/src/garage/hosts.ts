/**
 * What a charging host's connection needs, per chargingSystemType (0 none, 1 user login to a charging
 * system, 2 a charging API, 3 other): the host form shows these fields with these labels, the server
 * checks the same table. `Password` holds the login password or the API secret; it is stored for the
 * device layer and never sent back to a client.
 */
export type ConnectionField = 'Endpoint' | 'Account' | 'Password';
export type FieldNeed = 'required' | 'optional' | 'none';

export interface ConnectionFieldSpec {
  need: FieldNeed;
  /** Catalogue key of the label. */
  labelKey: string;
  /** The Endpoint must be an http(s) URL. */
  url?: boolean;
}

export const HOST_CONNECTION_FIELDS: Readonly<
  Record<number, Readonly<Record<ConnectionField, ConnectionFieldSpec>>>
> = {
  0: {
    Endpoint: { need: 'none', labelKey: 'garage.connection.other.Endpoint' },
    Account: { need: 'none', labelKey: 'garage.connection.other.Account' },
    Password: { need: 'none', labelKey: 'garage.connection.other.Password' },
  },
  1: {
    Endpoint: { need: 'required', labelKey: 'garage.connection.login.Endpoint', url: true },
    Account: { need: 'required', labelKey: 'garage.connection.login.Account' },
    Password: { need: 'required', labelKey: 'garage.connection.login.Password' },
  },
  2: {
    Endpoint: { need: 'required', labelKey: 'garage.connection.api.Endpoint', url: true },
    Account: { need: 'optional', labelKey: 'garage.connection.api.Account' },
    Password: { need: 'required', labelKey: 'garage.connection.api.Password' },
  },
  3: {
    Endpoint: { need: 'optional', labelKey: 'garage.connection.other.Endpoint' },
    Account: { need: 'optional', labelKey: 'garage.connection.other.Account' },
    Password: { need: 'optional', labelKey: 'garage.connection.other.Password' },
  },
};

/** A host that reported within this window counts as online. */
export const HOST_ONLINE_WINDOW_MS = 5 * 60_000;

export function isHostOnline(lastSeenAt: number | null, now: number): boolean {
  return lastSeenAt !== null && now - lastSeenAt <= HOST_ONLINE_WINDOW_MS;
}

/** The most ports one host may have. */
export const MAX_HOST_PORTS = 64;
