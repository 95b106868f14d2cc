import { describe, expect, it } from 'vitest';
import { formBody } from '../src/components/list-page/FormDialog.tsx';
import type { FieldDef, Row } from '../src/components/list-page/types.ts';
import { hostForm } from '../src/pages/garage/charge-host/host-form.ts';
import { ruleForm, termsOf } from '../src/pages/garage/charge-rule/rule-form.tsx';
import { canPowerOff } from '../src/pages/garage/charge-equipment/types.ts';

type Values = Record<string, unknown>;
const shown = (fields: FieldDef<Row>[], values: Values, editing = false) =>
  fields
    .filter((f) => !(f.only === 'create' && editing) && !(f.only === 'edit' && !editing))
    .filter((f) => !f.visible || f.visible(values));

describe('charge rule dialog', () => {
  const form = ruleForm<Row>();
  const names = (values: Values) => shown(form.fields, values).map((f) => f.name);

  it('shows the fields of the chosen charge type only', () => {
    expect(names({ ChargeType: 1 })).toEqual(
      expect.arrayContaining(['Name', 'ChargeType', 'TimeUnit', 'UnitPriceCents', 'ParkAreaIds']),
    );
    expect(names({ ChargeType: 1 })).not.toEqual(expect.arrayContaining(['TemporaryChargeType']));
    for (const type of [0, 3]) {
      const fields = names({ ChargeType: type });
      expect(fields).toEqual(expect.arrayContaining(['TemporaryChargeType', 'FreeMinutes', 'CapCents']));
      expect(fields).not.toContain('TimeUnit');
    }
  });

  it('sends a monthly rule without the temporary terms and a temporary one with its grace and cap', () => {
    const monthly = formBody(
      form,
      { Name: '月卡', ChargeType: 2, TimeUnit: 2, UnitPriceCents: 60, FreeMinutes: 10, CapCents: 5 },
      null,
    );
    expect(monthly).toEqual({
      Name: '月卡',
      ChargeType: 2,
      TimeUnit: 2,
      UnitPriceCents: 6000,
      ParkAreaIds: [],
    });
    const temporary = formBody(
      form,
      { Name: '计量', ChargeType: 3, TemporaryChargeType: 2, UnitPriceCents: 1.2, FreeMinutes: null },
      null,
    );
    expect(temporary).toMatchObject({ UnitPriceCents: 120, FreeMinutes: 0, CapCents: null, ParkAreaIds: [] });
  });

  it('checks the terms with the shared tariff rule before sending', () => {
    const check = (values: Values) => form.check!(formBody(form, values, null), null);
    expect(check({ Name: 'x', ChargeType: 3, TemporaryChargeType: 2, UnitPriceCents: 1 })).toEqual([]);
    expect(check({ Name: 'x', ChargeType: 0, TemporaryChargeType: 2, UnitPriceCents: 1 })).toEqual([
      { field: 'TemporaryChargeType', key: 'garage.validation.parkingNotMetered' },
    ]);
    expect(check({ Name: 'x', ChargeType: 1, UnitPriceCents: 30 })).toEqual([
      { field: 'TimeUnit', key: 'garage.validation.timeUnitRequired' },
    ]);
  });

  it('fills what a type leaves out the way the server does', () => {
    expect(termsOf({ ChargeType: 1, UnitPriceCents: 3000, TimeUnit: 2 })).toEqual({
      ChargeType: 1,
      TemporaryChargeType: 0,
      UnitPriceCents: 3000,
      TimeUnit: 2,
      FreeMinutes: 0,
      CapCents: null,
    });
  });
});

describe('charging host dialog', () => {
  const form = hostForm<Row>();
  const connection = (type: number, editing = false) =>
    shown(form.fields, { ChargingSystemType: type }, editing)
      .filter((f) => ['Endpoint', 'Account', 'Password'].includes(f.name))
      .map((f) => `${f.name}:${f.label}:${f.required ? 'required' : 'optional'}`);

  it('asks for the connection each charging system type needs, with its words', () => {
    expect(connection(0)).toEqual([]);
    expect(connection(1)).toEqual([
      'Endpoint:garage.connection.login.Endpoint:required',
      'Account:garage.connection.login.Account:required',
      'Password:garage.connection.login.Password:required',
    ]);
    expect(connection(2)).toEqual([
      'Endpoint:garage.connection.api.Endpoint:required',
      'Account:garage.connection.api.Account:optional',
      'Password:garage.connection.api.Password:required',
    ]);
    expect(connection(3)).toEqual([
      'Endpoint:garage.connection.other.Endpoint:optional',
      'Account:garage.connection.other.Account:optional',
      'Password:garage.connection.other.Password:optional',
    ]);
  });

  it('keeps the stored password when an edit leaves it empty', () => {
    expect(connection(1, true)).toContain('Password:garage.connection.login.Password:optional');
    const values = {
      SerialNumber: 'ZX1',
      Name: 'h',
      ParkAreaId: 1,
      PortCount: 4,
      ChargingSystemType: 1,
      Endpoint: 'https://x.example',
      Account: 'op',
      Password: '',
    };
    expect(formBody(form, values, { Id: 9 })).not.toHaveProperty('Password');
    expect(formBody(form, { ...values, Password: 'new' }, { Id: 9 })).toHaveProperty('Password', 'new');
    // A type without a connection sends none of the fields it hides.
    expect(formBody(form, { ...values, ChargingSystemType: 0 }, null)).not.toHaveProperty('Endpoint');
  });
});

describe('forced power-off on the grid', () => {
  it('is offered where a vehicle is at the socket or a session runs', () => {
    expect(canPowerOff({ StateGroup: 'occupied', Session: null })).toBe(true);
    expect(canPowerOff({ StateGroup: 'idle', Session: null })).toBe(false);
    expect(canPowerOff({ StateGroup: 'fault', Session: null })).toBe(false);
    expect(
      canPowerOff({
        StateGroup: 'fault',
        Session: {
          ChargeRecordId: 1,
          ChargeOrderId: 1,
          OrderNo: 'CD1',
          CardNumber: null,
          StartAt: '2026-01-01T00:00:00Z',
          EnergyWh: 0,
          DurationMinutes: 0,
          EstimatedCents: 0,
        },
      }),
    ).toBe(true);
  });
});
