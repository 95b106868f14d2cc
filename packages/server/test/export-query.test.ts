import { expect, it } from 'vitest';
import { call, login } from './support/client.ts';
import { DEMO_PASSWORD, describeEachDb } from './support/harness.ts';

interface FieldErrors {
  Errors?: { Field: string; Message: string }[];
}

/*
 * An export's Query is its list's query (issue 27): checked by the list's own filter schema, where a key the
 * list does not know is refused and named instead of silently dropped, and a value is never an object (an
 * operator such as {"$gt": ""} is not a filter value).
 */
describeEachDb('an export takes exactly its list query', (h) => {
  const start = async (Query: unknown) => {
    const token = await login(h().app, 'operatorconfig', DEMO_PASSWORD);
    const jobs = async () => (await h().db.kysely.selectFrom('ExportJob').select('Id').execute()).length;
    const before = await jobs();
    const reply = await call<FieldErrors>(h().app, 'POST', '/api/ExportJob', {
      token,
      area: 1,
      lang: 'en',
      body: { Resource: 'OperatorStaff', Query },
    });
    return { reply, added: (await jobs()) - before };
  };

  it('refuses a key the list does not know, naming it, and writes no job', async () => {
    const unknown = await start({ Nmae: '刘洋' });
    expect(unknown.reply.status).toBe(400);
    expect(unknown.reply.data.Errors?.map((e) => e.Field)).toEqual(['Nmae']);
    expect(unknown.added).toBe(0);

    const operatorKey = await start({ $gt: '' });
    expect(operatorKey.reply.status).toBe(400);
    expect(operatorKey.reply.data.Errors?.map((e) => e.Field)).toEqual(['$gt']);
    expect(operatorKey.added).toBe(0);
  });

  it('refuses an operator object as a filter value', async () => {
    const operator = await start({ Keyword: { $gt: '' } });
    expect(operator.reply.status).toBe(400);
    expect(operator.reply.data.Errors?.map((e) => e.Field).join(',')).toContain('Keyword');
    expect(operator.added).toBe(0);
  });

  it('accepts a valid list query (filters and sort, in the JSON types a client sends)', async () => {
    const valid = await start({
      StaffType: 0,
      Disabled: false,
      Keyword: '刘',
      SortField: 'Name',
      SortOrder: 'asc',
    });
    expect(valid.reply.status, valid.reply.msg).toBe(200);
    expect(valid.added).toBe(1);
    await h().platform.exports.idle();
  });
});
