import { expect, it } from 'vitest';
import { MAX_FIELD_ERRORS } from '../src/platform/validation.ts';
import { describeEachDb } from './support/harness.ts';

describeEachDb('request limits', (h) => {
  it('refuses an oversized anonymous body before parsing it, with a small 413', async () => {
    const body: Record<string, string> = { username: 'admin', password: 'x' };
    for (let i = 0; i < 170_000; i++) body[`k${i}`] = '';
    const payload = JSON.stringify(body);
    expect(payload.length).toBeGreaterThan(1_500_000);
    const reply = await h().app.inject({
      method: 'POST',
      url: '/api/Auth/login',
      payload,
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
    });
    expect(reply.statusCode).toBe(413);
    expect(reply.json()).toEqual({ code: 413, msg: 'The request is too large', data: null });
  });

  it('lists a bounded number of unknown keys: the error stays small whatever the body holds', async () => {
    const body: Record<string, string> = { username: 'admin', password: 'x' };
    for (let i = 0; i < 150; i++) body[`unknown-key-${i}`] = '';
    const reply = await h().app.inject({ method: 'POST', url: '/api/Auth/login', payload: body });
    expect(reply.statusCode).toBe(400);
    const errors = (reply.json() as { data: { Errors: { Field: string }[] } }).data.Errors;
    expect(errors).toHaveLength(MAX_FIELD_ERRORS);
    expect(errors[0]!.Field).toBe('unknown-key-0');
    expect(reply.payload.length).toBeLessThan(4_000);
  });

  it('cuts a very long unknown key in the error', async () => {
    const reply = await h().app.inject({
      method: 'POST',
      url: '/api/Auth/login',
      payload: { username: 'admin', password: 'x', ['k'.repeat(3000)]: 1 },
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.payload.length).toBeLessThan(1_000);
  });
});
