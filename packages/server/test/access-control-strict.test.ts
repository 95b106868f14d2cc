import { expect, it } from 'vitest';
import type { z } from 'zod';
import { accessControlModule } from '../src/modules/access-control/index.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, describeEachDb } from './support/harness.ts';

/**
 * Bodies are JSON, and the contract takes their numbers as JSON numbers only: an id, an enumeration value or
 * any other number written as text ("123") is refused with 400 naming the field, before anything runs.
 * Query strings and paths carry text, so ids there stay digits (the list and detail tests cover them).
 */

const FROM = '2026-01-01T00:00:00.000Z';
const TO = '2026-12-31T23:59:59.000Z';
const holder = {
  Name: '严格测试',
  Nation: 1,
  DepartmentId: 1,
  PeopleGroupId: 1,
  PeopleTypeId: 1,
  CardIds: [1],
  ValidFrom: FROM,
  ValidTo: TO,
};

/** A body each operation of the module takes (valid for its schema; the calls below never get that far). */
const BODIES: Record<string, Record<string, unknown>> = {
  'POST /api/DeviceRegistration': { SerialNumbers: '223999001', Protocol: 1, Type: 2, AreaId: 1 },
  'POST /api/DeviceRegistration/Assign': { Ids: [1], AreaId: 1 },
  'POST /api/DeviceRegistration/Unassign': { Ids: [1] },
  'POST /api/DeviceRegistration/BatchDelete': { Ids: [1] },
  'POST /api/CardRegistration': { Mode: 'Single', CardNumber: '0012345678', CardType: 1, AreaId: 1 },
  'POST /api/CardRegistration/Assign': { Ids: [1], AreaId: 1 },
  'POST /api/CardRegistration/Unassign': { Ids: [1] },
  'POST /api/CardRegistration/BatchDelete': { Ids: [1] },
  'PUT /api/AccessControlDevice': { Id: 1, Name: '东门', Ip: '10.0.0.2', Port: 60000 },
  'POST /api/AccessControlDevice/SetTime': { Id: 1 },
  'POST /api/AccessControlDevice/SyncNow': { Id: 1 },
  'POST /api/AccessControlChannel': { DeviceId: 1, DoorNumber: 1, Name: '门1', Direction: 1, ReaderType: 0 },
  'PUT /api/AccessControlChannel': { Id: 1, DoorNumber: 1, Name: '门1', Direction: 1, ReaderType: 0 },
  'POST /api/AccessControlChannel/BatchDelete': { Ids: [1] },
  'POST /api/AccessControlChannel/OpenDoor': { Id: 1 },
  'POST /api/AccessControlChannel/SetDoorMode': { Id: 1, Mode: 3, Delay: 5 },
  'POST /api/CardUser': holder,
  'PUT /api/CardUser': { Id: 1, ...holder },
  'POST /api/CardUser/BatchDelete': { Ids: [1] },
  'POST /api/CardUser/Extend': { Ids: [1], ValidTo: TO },
  'POST /api/CardUserLinkChannel/Grant': { CardUserId: 1, ChannelIds: [1], ValidFrom: FROM, ValidTo: TO },
  'POST /api/CardUserLinkChannel/BatchGrant': { DepartmentId: 1, PeopleGroupId: 1, ChannelIds: [1] },
  'PUT /api/CardUserLinkChannel': { Id: 1, ValidFrom: null, ValidTo: null },
  'POST /api/CardUserLinkChannel/Revoke': { Ids: [1] },
  'POST /api/FailureDeclarationRecord': {
    DeviceId: 1,
    ChannelId: 1,
    Description: '读卡器无响应',
    HandlerId: 1,
  },
  'POST /api/FailureDeclarationRecord/Progress': { Id: 1, Status: 1, Note: '已派人', HandlerId: 1 },
  'POST /api/TimeProfile': {
    Name: '白班',
    StartDate: '2027-01-01',
    EndDate: '2027-12-31',
    Weekdays: [1, 2],
    Segments: [{ Start: '08:00', End: '18:00' }],
    LinkedProfileId: null,
    NotOnHolidays: true,
  },
  'PUT /api/TimeProfile': {
    Id: 1,
    ...{
      Name: '白班',
      StartDate: '2027-01-01',
      EndDate: '2027-12-31',
      Weekdays: [1, 2],
      Segments: [{ Start: '08:00', End: '18:00' }],
      LinkedProfileId: null,
      NotOnHolidays: true,
    },
  },
  'POST /api/TimeProfile/BatchDelete': { Ids: [1] },
  'PUT /api/Holiday': { Id: 1, ...{ Name: '劳动节', StartDate: '2027-05-01', EndDate: '2027-05-03' } },
  'POST /api/Holiday/BatchDelete': { Ids: [1] },
  'POST /api/DoorSchedule': {
    DeviceId: 1,
    DoorNumber: 1,
    Action: 1,
    Time: '07:00',
    Weekdays: [1, 2, 3, 4, 5],
    StartDate: '2027-01-01',
    EndDate: '2027-12-31',
  },
  'PUT /api/DoorSchedule': {
    Id: 1,
    DoorNumber: 1,
    Action: 1,
    Time: '07:00',
    Weekdays: [1, 2, 3, 4, 5],
    StartDate: '2027-01-01',
    EndDate: '2027-12-31',
  },
  'POST /api/DoorSchedule/BatchDelete': { Ids: [1] },
  'POST /api/DoorAlarm/Acknowledge': { Ids: [1], Note: '已处理' },
  'POST /api/VisitorPass': {
    VisitorName: '访客',
    HostCardUserId: 1,
    ChannelIds: [1],
    ValidFrom: Date.UTC(2027, 0, 1, 9),
    ValidTo: Date.UTC(2027, 0, 1, 17),
  },
  'POST /api/VisitorPass/Revoke': { Id: 1 },
  'POST /api/AreaInfo/Lockdown': { Id: 1, Mode: 'lockdown', Reason: '消防演练' },
  'POST /api/AreaInfo/LockdownRelease': { Id: 1, Note: '演练结束' },
  'POST /api/Muster/Start': { AreaId: 1, ChannelIds: [1], Reason: '消防演练' },
  'POST /api/Muster/MarkSafe': { Id: 1, CardUserIds: [1], Note: '已到集合点' },
  'POST /api/Muster/End': { Id: 1, Note: '演练结束' },
  'PUT /api/Occupancy/Settings': { ResetHour: 4 },
};

/** Operations whose bodies hold no number at all. */
const NO_NUMBERS = new Set(['POST /api/CardUser/Import', 'POST /api/Holiday']); // a holiday: name and dates

const routes = accessControlModule.routes.filter((r) => r.body);
const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

/** The body with one numeric field written as text: a number becomes "n", a list of numbers ["n", …]. */
function asText(body: Record<string, unknown>, field: string): Record<string, unknown> {
  const value = body[field];
  return { ...body, [field]: Array.isArray(value) ? value.map(String) : String(value) };
}

const numericFields = (body: Record<string, unknown>) =>
  Object.keys(body).filter((field) => {
    const value = body[field];
    return typeof value === 'number' || (Array.isArray(value) && value.every((v) => typeof v === 'number'));
  });

describeEachDb('access control: strict bodies', (h) => {
  it('has a body above for every operation of the module that takes one, each valid for its schema', () => {
    expect(Object.keys(BODIES).sort()).toEqual(
      routes
        .map(key)
        .filter((k) => !NO_NUMBERS.has(k))
        .sort(),
    );
    for (const route of routes.filter((r) => BODIES[key(r)])) {
      const parsed = (route.body as z.ZodType).safeParse(BODIES[key(route)]);
      expect(parsed.success, `${key(route)}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });

  it('refuses an authorisation id written as text when changing its validity', async () => {
    const token = await login(h().app, 'admin', ADMIN_PASSWORD);
    const textual = await call<{ Errors: { Field: string }[] }>(h().app, 'PUT', '/api/CardUserLinkChannel', {
      token,
      area: 1,
      body: { Id: '123', ValidFrom: null, ValidTo: null },
    });
    expect(textual.status).toBe(400);
    expect(textual.data.Errors.map((e) => e.Field)).toEqual(['Id']);
    // The same id as a number is read, and simply not found.
    const asNumber = await call(h().app, 'PUT', '/api/CardUserLinkChannel', {
      token,
      area: 1,
      body: { Id: 123_456_789, ValidFrom: null, ValidTo: null },
    });
    expect(asNumber.status).toBe(404);
  });

  it('refuses every id, enumeration value and number of every body written as text, naming the field', async () => {
    const token = await login(h().app, 'admin', ADMIN_PASSWORD);
    let checked = 0;
    for (const [operation, body] of Object.entries(BODIES)) {
      const [method, url] = operation.split(' ') as ['POST' | 'PUT', string];
      const fields = numericFields(body);
      expect(fields.length, operation).toBeGreaterThan(0);
      for (const field of fields) {
        const reply = await call<{ Errors?: { Field: string }[] }>(h().app, method, url, {
          token,
          area: 1,
          body: asText(body, field),
        });
        expect(reply.status, `${operation} ${field}`).toBe(400);
        const named = (reply.data.Errors ?? []).map((e) => e.Field);
        expect(named.length, `${operation} ${field}`).toBeGreaterThan(0);
        expect(
          named.every((f) => f === field || f.startsWith(`${field}.`)),
          `${operation} ${field}: ${named.join(', ')}`,
        ).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
