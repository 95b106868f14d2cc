import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, RequestError, type ClientDeps } from '../src/core/request.ts';

function setup(options: { token?: string; areaId?: number | null; language?: string } = {}) {
  const state = { token: options.token ?? 'tok-1' };
  const errors: [string, number][] = [];
  let reminders = 0;
  let closeReminder: () => void = () => {};
  const deps: ClientDeps = {
    getToken: () => state.token,
    setToken: (token) => {
      state.token = token;
    },
    getAreaId: () => (options.areaId === undefined ? 7 : options.areaId),
    getLanguage: () => options.language ?? 'en',
    translate: (key) => (key === 'request.requestError' ? 'Request error' : 'Something went wrong'),
    showError: (text, seconds) => errors.push([text, seconds]),
    confirmLogout: () => {
      reminders++;
      return new Promise<void>((resolve) => {
        closeReminder = resolve;
      });
    },
  };
  return { deps, state, errors, reminders: () => reminders, closeReminder: () => closeReminder() };
}

function reply(status: number, body: unknown) {
  return vi.fn(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('request client', () => {
  it('sends the token, the current area and the language, and returns data on 200/200', async () => {
    const t = setup({ areaId: 2, language: 'es' });
    const fetchMock = reply(200, { code: 200, msg: '', data: { Id: 1 } });
    const client = createClient(t.deps, fetchMock);
    await expect(client.get('/api/AreaInfo/1', { query: { a: 1, b: undefined, c: '' } })).resolves.toEqual({
      Id: 1,
    });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/AreaInfo/1?a=1');
    expect(init.headers).toMatchObject({
      Authorization: 'Bearer tok-1',
      'X-Area-Id': '2',
      'Accept-Language': 'es',
    });
    expect(t.errors).toEqual([]);
  });

  it('sends no area header before an area is chosen, and a JSON body when given', async () => {
    const t = setup({ areaId: null });
    const fetchMock = reply(200, { code: 200, msg: '', data: null });
    await createClient(t.deps, fetchMock).post('/api/x', { Name: 'a' });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.headers).not.toHaveProperty('X-Area-Id');
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/json' });
    expect(init.body).toBe('{"Name":"a"}');
  });

  it('replaces the stored token with one the server returns', async () => {
    const t = setup();
    await createClient(t.deps, reply(200, { code: 200, msg: '', data: {}, token: 'tok-2' })).post(
      '/api/Auth/login',
      {},
    );
    expect(t.state.token).toBe('tok-2');
  });

  it('shows the server message for 3 s on another code and rejects with it', async () => {
    const t = setup();
    const call = createClient(
      t.deps,
      reply(400, { code: 400, msg: 'Wrong username or password', data: null }),
    ).get('/x');
    await expect(call).rejects.toMatchObject({ message: 'Wrong username or password', code: 400 });
    expect(t.errors).toEqual([['Wrong username or password', 3]]);
  });

  it('falls back to the generic text, and rejects with "Error", when the server gives no message', async () => {
    const t = setup();
    await expect(
      createClient(t.deps, reply(409, { code: 409, msg: '', data: null })).get('/x'),
    ).rejects.toMatchObject({
      message: 'Error',
      code: 409,
    });
    expect(t.errors).toEqual([['Something went wrong', 3]]);
  });

  it('treats a body code other than 200 as a failure even on HTTP 200', async () => {
    const t = setup();
    await expect(
      createClient(t.deps, reply(200, { code: 500, msg: 'boom', data: null })).get('/x'),
    ).rejects.toBeInstanceOf(RequestError);
    expect(t.errors).toEqual([['boom', 3]]);
  });

  it('opens the logout reminder once however many calls fail with 401 or 402 together', async () => {
    const t = setup();
    const client = createClient(
      t.deps,
      vi.fn(
        async (url: string | URL | Request) =>
          new Response(
            JSON.stringify({ code: String(url).includes('402') ? 402 : 401, msg: 'expired', data: null }),
            {
              status: String(url).includes('402') ? 402 : 401,
            },
          ),
      ),
    );
    await Promise.all([
      expect(client.get('/a')).rejects.toMatchObject({ message: 'expired', code: 401 }),
      expect(client.get('/b')).rejects.toMatchObject({ message: 'expired', code: 401 }),
      expect(client.get('/c-402')).rejects.toMatchObject({ message: 'expired', code: 402 }),
    ]);
    expect(t.reminders()).toBe(1);
    expect(t.errors).toEqual([]);
    // Once the dialog is closed, the next expired call asks again.
    t.closeReminder();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(client.get('/d')).rejects.toMatchObject({ code: 401 });
    expect(t.reminders()).toBe(2);
  });

  it('shows "Request error" for 5 s when the server is not reached', async () => {
    const t = setup();
    const fetchMock = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(createClient(t.deps, fetchMock).get('/x')).rejects.toMatchObject({
      message: 'Request error',
      code: 0,
    });
    expect(t.errors).toEqual([['Request error', 5]]);
  });

  it('shows "Request error" for an HTTP failure without an envelope', async () => {
    const t = setup();
    await expect(
      createClient(t.deps, reply(502, '<html>Bad gateway</html>')).get('/x'),
    ).rejects.toMatchObject({ code: 0 });
    expect(t.errors).toEqual([['Request error', 5]]);
  });

  it('gives up after the timeout (60 s by default) with "Request error"', async () => {
    vi.useFakeTimers();
    const t = setup();
    let signal: AbortSignal | undefined;
    const fetchMock = vi.fn(
      (_url: string | URL | Request, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          signal = init?.signal ?? undefined;
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    // The expectation is attached at once: the rejection comes while the clock is advanced.
    const outcome = expect(createClient(t.deps, fetchMock).get('/slow')).rejects.toMatchObject({
      message: 'Request error',
      code: 0,
    });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(signal?.aborted).toBe(true);
    await outcome;
    expect(t.errors).toEqual([['Request error', 5]]);
  });

  it('stays silent when asked to, and quiet only about envelope codes', async () => {
    const t = setup();
    await expect(
      createClient(t.deps, reply(400, { code: 400, msg: 'no', data: null })).get('/x', { silent: true }),
    ).rejects.toMatchObject({ message: 'no', code: 400 });
    await expect(
      createClient(t.deps, reply(401, { code: 401, msg: 'expired', data: null })).get('/x', { silent: true }),
    ).rejects.toMatchObject({ message: 'expired', code: 401 });
    expect(t.errors).toEqual([]);
    expect(t.reminders()).toBe(0);
    await expect(
      createClient(t.deps, reply(404, { code: 404, msg: 'gone', data: null })).get('/x', { quiet: true }),
    ).rejects.toMatchObject({ message: 'gone', code: 404 });
    expect(t.errors).toEqual([]);
    await expect(
      createClient(
        t.deps,
        vi.fn(async () => Promise.reject(new TypeError('offline'))),
      ).get('/x', { quiet: true }),
    ).rejects.toMatchObject({ message: 'Request error', code: 0 });
    expect(t.errors).toEqual([['Request error', 5]]);
  });
});
