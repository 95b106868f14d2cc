import {
  HOST_CONNECTION_FIELDS,
  HOST_MAX_POWER_MAX_W,
  HOST_MAX_POWER_MIN_W,
  MAX_HOST_PORTS,
  chargingSystemType,
  upperAlnum,
  url,
  type ConnectionField,
  type ConnectionFieldSpec,
} from '@gatehouse/shared';
import type { FieldDef, FormDef, Row, TKey } from '../../../components/list-page/index.ts';
import { zoneOptions } from '../options.ts';

const CONNECTION: ConnectionField[] = ['Endpoint', 'Account', 'Password'];
const MAX_LENGTH: Record<ConnectionField, number> = { Endpoint: 200, Account: 100, Password: 200 };

const specOf = (values: Record<string, unknown>, field: ConnectionField): ConnectionFieldSpec | undefined =>
  HOST_CONNECTION_FIELDS[values.ChargingSystemType as number]?.[field];

/**
 * The connection fields of the host dialog, from the shared HOST_CONNECTION_FIELDS: one field per label and
 * need a charging system type gives it (the login type asks for a "login account", the API type for an
 * "app ID"), shown only for the types that use it. The password is write-only: when editing, leaving it
 * empty keeps the stored one.
 */
export function connectionFields<T extends Row>(): FieldDef<T>[] {
  const fields: FieldDef<T>[] = [];
  for (const field of CONNECTION) {
    const variants = new Map<string, ConnectionFieldSpec>();
    for (const spec of Object.values(HOST_CONNECTION_FIELDS)) {
      const s = spec[field];
      if (s.need !== 'none') variants.set(`${s.labelKey}|${s.need}`, s);
    }
    for (const [variant, s] of variants) {
      const visible = (values: Record<string, unknown>) => {
        const current = specOf(values, field);
        return current !== undefined && `${current.labelKey}|${current.need}` === variant;
      };
      const base = {
        name: field,
        label: s.labelKey as TKey,
        maxLength: MAX_LENGTH[field],
        rules: s.url ? [url] : [],
        visible,
      };
      if (field === 'Password') {
        fields.push(
          { ...base, kind: 'password', required: s.need === 'required', only: 'create' },
          { ...base, kind: 'password', only: 'edit', extra: 'garageUi.host.passwordKeep' },
        );
      } else {
        fields.push({ ...base, kind: 'text', required: s.need === 'required', wide: field === 'Endpoint' });
      }
    }
  }
  return fields;
}

/** The host dialog: identity, zone, port count (sockets 1…N are created with it) and connection. */
export function hostForm<T extends Row>(): FormDef<T> {
  return {
    width: 760,
    fields: [
      {
        name: 'SerialNumber',
        label: 'garage.field.SerialNumber',
        kind: 'text',
        required: true,
        rules: [upperAlnum],
        minLength: 4,
        maxLength: 32,
      },
      { name: 'Name', label: 'garageUi.host.name', kind: 'text', required: true, maxLength: 50 },
      {
        name: 'ParkAreaId',
        label: 'garage.field.ZoneName',
        kind: 'select',
        required: true,
        options: zoneOptions,
      },
      {
        name: 'PortCount',
        label: 'garage.field.PortCount',
        kind: 'number',
        required: true,
        min: 1,
        max: MAX_HOST_PORTS,
        extra: 'garageUi.host.portCountHint',
      },
      {
        name: 'ChargingSystemType',
        label: 'garage.field.ChargingSystemType',
        kind: 'select',
        required: true,
        options: { kind: 'enum', def: chargingSystemType },
        wide: true,
      },
      ...connectionFields<T>(),
      // What the host may draw in all: the zone power budget's limits never add up to more (empty: none).
      {
        name: 'MaxPowerW',
        label: 'garage.field.HostMaxPowerW',
        kind: 'number',
        min: HOST_MAX_POWER_MIN_W,
        max: HOST_MAX_POWER_MAX_W,
        extra: 'garageUi.zonePower.hostMaxHint',
      },
      { name: 'Remark', label: 'garage.field.Remark', kind: 'textarea', maxLength: 200 },
    ],
    toBody: (values, item) => {
      const body = { ...values };
      // An empty password when editing means "keep it"; the server keeps a password it is not sent.
      if (item && !body.Password) delete body.Password;
      return body;
    },
  };
}
