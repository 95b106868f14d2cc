import { expect, it } from 'vitest';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb } from './support/harness.ts';

/**
 * What the access-control writes refuse, said in the operator's words on the field that is wrong (issue 27): a
 * passcode that is not 1 to 6 digits is named as such (never "cannot be empty"), at its place in the list; and
 * a door schedule on a controller the product does not drive is refused on its device field.
 */
describeEachDb('access control: refusals name their field in the operator words', (h) => {
  it('a wrong passcode is named on Passcodes (the list) or Passcodes.N (the code), in the caller language', async () => {
    const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    const channel = await h()
      .db.kysely.selectFrom('AccessControlChannel as C')
      .innerJoin('AccessControlDevice as D', 'D.Id', 'C.DeviceId')
      .select(['C.Id', 'C.Name', 'C.DoorNumber', 'C.Direction'])
      .where('D.AreaId', '=', 1)
      .where('D.Protocol', '=', 0)
      .where('C.DoorNumber', '>', 0)
      .orderBy('C.Id')
      .executeTakeFirstOrThrow();
    const put = (Passcodes: unknown, lang: string) =>
      call<{ Errors: { Field: string; Message: string }[] }>(h().app, 'PUT', '/api/AccessControlChannel', {
        token,
        area: 1,
        lang,
        body: { ...channel, Passcodes },
      });
    const refused = async (Passcodes: unknown, lang = 'en') => {
      const reply = await put(Passcodes, lang);
      expect(reply.status, reply.msg).toBe(400);
      return reply.data.Errors.map((e) => `${e.Field}: ${e.Message}`);
    };
    expect(await refused(['abc'])).toEqual(['Passcodes.0: A passcode is 1 to 6 digits, not all zeros']);
    expect(await refused([null])).toEqual(['Passcodes.0: A passcode is 1 to 6 digits, not all zeros']);
    expect(await refused([1234, 1_234_567])).toEqual([
      'Passcodes.1: A passcode is 1 to 6 digits, not all zeros',
    ]);
    expect(await refused([1, 2, 3, 4, 5])).toEqual(['Passcodes: At most 4 passcodes per door']);
    expect(await refused([55, 55])).toEqual(['Passcodes: The same passcode is entered twice']);
    expect(await refused(['abc'], 'zh')).toEqual(['Passcodes.0: 开门密码为 1 到 6 位数字，且不能全为 0']);
    const ok = await put([123456, 7], 'en');
    expect(ok.status, ok.msg).toBe(200);
  });

  it('a door schedule on a third-party gate is refused on its device field', async () => {
    const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
    const gate = await h()
      .db.kysely.selectFrom('AccessControlDevice')
      .select(['Id', 'Name'])
      .where('AreaId', '=', 1)
      .where('Protocol', '!=', 0)
      .orderBy('Id')
      .executeTakeFirstOrThrow();
    const reply = await call<{ Errors: { Field: string; Message: string }[] }>(
      h().app,
      'POST',
      '/api/DoorSchedule',
      {
        token,
        area: 1,
        lang: 'en',
        body: {
          DeviceId: gate.Id,
          DoorNumber: 1,
          Action: 1,
          Time: '07:00',
          Weekdays: [1, 2, 3, 4, 5],
          StartDate: '2027-01-01',
          EndDate: '2027-12-31',
        },
      },
    );
    expect(reply.status, reply.msg).toBe(400);
    expect(reply.data.Errors.map((e) => e.Field)).toEqual(['DeviceId']);
    expect(reply.data.Errors[0]!.Message).toContain(gate.Name);
  });
});
