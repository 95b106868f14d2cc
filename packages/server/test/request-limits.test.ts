import { expect, it } from 'vitest';
import { MAX_FIELD_ERRORS } from '../src/platform/validation.ts';
import { ADMIN_PASSWORD, describeEachDb } from './support/harness.ts';

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

  it('holds the login form to 4 KB and signed-in calls to 2 MB', async () => {
    const login = (padding: number) =>
      h().app.inject({
        method: 'POST',
        url: '/api/Auth/login',
        payload: { username: 'nobody', password: 'x'.repeat(padding) },
      });
    // Under the limit the form is read (and refused for what it says); over it, never read.
    expect((await login(3_000)).statusCode).toBe(400);
    expect((await login(5_000)).statusCode).toBe(413);
    const token = (
      await h().app.inject({
        method: 'POST',
        url: '/api/Auth/login',
        payload: { username: 'admin', password: ADMIN_PASSWORD },
      })
    ).json<{ data: { token: string } }>().data.token;
    const upload = (size: number) =>
      h().app.inject({
        method: 'POST',
        url: '/api/CardUser/Import',
        headers: { authorization: `Bearer ${token}`, 'x-area-id': '1' },
        payload: { Content: 'A'.repeat(size) },
      });
    expect((await upload(1_900_000)).statusCode).toBe(400);
    expect((await upload(2_200_000)).statusCode).toBe(413);
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
