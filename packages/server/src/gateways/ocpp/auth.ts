import { chargingSystemType } from '@gatehouse/shared';
import type { Db } from '../../db/database.ts';
import { chargePointCredentials, storeChargePointKey } from '../../modules/garage/index.ts';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.ts';
import type { ChargePointSession } from './connection.ts';
import { OCPP_PATH } from './protocol.ts';

export type AuthResult =
  | { ok: true; session: ChargePointSession }
  | { ok: false; reason: 'path' | 'no-password' | 'unknown' | 'wrong-password' | 'disabled' | 'not-ocpp' };

/** chargingSystemType 2, "a charging API": the hosts that speak OCPP to Gatehouse. */
export const OCPP_CHARGING_SYSTEM_TYPE = 2;
// Fails at start if the enumeration ever drops the value this gateway is keyed on.
if (!chargingSystemType.items.some((item) => item.value === OCPP_CHARGING_SYSTEM_TYPE)) {
  throw new Error('chargingSystemType 2 (charging API) is missing');
}

/**
 * OCPP security profile 1: HTTP Basic authentication, user name = charge point id = the host's serial number,
 * password checked against the host's argon2id hash. ocpp-rpc hands over the password only when the user name
 * equals the identity in the URL. The password is verified even for an unknown serial (against a dummy hash),
 * so the answer's timing does not tell which serials exist.
 */
export async function authenticateChargePoint(
  db: Db,
  endpoint: string,
  identity: string,
  password: Buffer | undefined,
): Promise<AuthResult> {
  if (endpoint !== OCPP_PATH) return { ok: false, reason: 'path' };
  const host = await chargePointCredentials(db, identity);
  if (!password) {
    await verifyPassword(undefined, '');
    return { ok: false, reason: 'no-password' };
  }
  const valid = await verifyPassword(host?.keyHash ?? undefined, receivedKey(password));
  if (!host) return { ok: false, reason: 'unknown' };
  if (!valid) return { ok: false, reason: 'wrong-password' };
  if (host.disabled) return { ok: false, reason: 'disabled' };
  if (host.chargingSystemType !== OCPP_CHARGING_SYSTEM_TYPE) return { ok: false, reason: 'not-ocpp' };
  return { ok: true, session: { hostId: host.hostId, areaId: host.areaId, serial: host.serial } };
}

/**
 * The OCPP 1.6 Security Whitepaper's AuthorizationKey is 16–20 octets, configured on the charge point as up
 * to 40 hexadecimal digits. Chargers differ in what they put in the Basic header: the digits as text, or the
 * decoded octets. Both reach the same stored form: hex text in lower case; any other text as it is.
 */
export function normaliseKey(text: string): string {
  return /^[0-9a-f]+$/i.test(text) ? text.toLowerCase() : text;
}

function receivedKey(password: Buffer): string {
  const text = password.toString('utf8');
  // Printable text that survives the round trip is a text password; anything else is raw key octets.
  const isText = Buffer.from(text, 'utf8').equals(password) && /^[\x20-\x7e]+$/.test(text);
  return isText ? normaliseKey(text) : password.toString('hex');
}

/**
 * Sets (or, with null, removes) a host's OCPP password. The host screen generates one (40 hexadecimal digits
 * work with every charger, see normaliseKey), stores it through this and shows it once; Gatehouse keeps only
 * the argon2id hash. 16–40 characters, as the whitepaper's key in its hexadecimal form.
 */
export async function setOcppPassword(db: Db, hostId: number, password: string | null): Promise<void> {
  if (
    password !== null &&
    (password.length < 16 || password.length > 40 || !/^[\x20-\x7e]+$/.test(password))
  ) {
    throw new RangeError('an OCPP password has 16 to 40 printable ASCII characters');
  }
  const hash = password === null ? null : await hashPassword(normaliseKey(password));
  await storeChargePointKey(db, hostId, hash);
}
