import type { WebSocket } from 'ws';
import { expect, it } from 'vitest';
import { redactUrl } from '../src/platform/security-headers.ts';
import { call, login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';
import { makeUser } from './support/users.ts';

interface Opened {
  socket: WebSocket;
  closed: Promise<number>;
  messages: Array<{ Type: string }>;
}

async function hubUrl(h: Harness, token: string, areaId = 1, host?: string): Promise<string> {
  const reply = await h.app.inject({
    method: 'GET',
    url: '/api/AreaInfo/GetHubUrl',
    query: { Id: String(areaId) },
    headers: { authorization: `Bearer ${token}`, ...(host ? { host } : {}) },
  });
  expect(reply.statusCode).toBe(200);
  return (reply.json() as { data: string }).data;
}

async function open(h: Harness, url: string, headers: Record<string, string> = {}): Promise<Opened> {
  const messages: Array<{ Type: string }> = [];
  let resolveClose!: (code: number) => void;
  const closed = new Promise<number>((resolve) => (resolveClose = resolve));
  const socket = await h.app.injectWS(
    url,
    { headers },
    {
      onInit(ws) {
        ws.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as { Type: string }));
        ws.on('close', (code: number) => resolveClose(code));
      },
    },
  );
  return { socket, closed, messages };
}

const welcomed = async (o: Opened) => {
  for (let i = 0; i < 100 && !o.messages.some((m) => m.Type === 'Welcome'); i++)
    await new Promise((r) => setTimeout(r, 10));
  expect(o.messages[0]).toMatchObject({ Type: 'Welcome' });
};

describeEachDb(
  'live hub and its session',
  (h) => {
    it('gives a relative address with a one-time ticket, whatever Host the request names', async () => {
      const token = await login(h().app, 'acuser', DEMO_PASSWORD);
      const url = await hubUrl(h(), token, 1, 'evil.example');
      expect(url).toMatch(/^\/api\/hub\?AreaId=1&ticket=[A-Za-z0-9_-]{32}$/);
      expect(url).not.toContain(token);
      expect(url).not.toContain('evil');
    });

    it('opens once per ticket, for its own area only; a token in the URL opens nothing', async () => {
      const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
      const url = await hubUrl(h(), token, 1);
      const first = await open(h(), url);
      await welcomed(first);
      first.socket.terminate();
      expect(await (await open(h(), url)).closed).toBe(4401);
      const ticket = new URL(await hubUrl(h(), token, 1), 'http://x').searchParams.get('ticket');
      expect(await (await open(h(), `/api/hub?AreaId=2&ticket=${ticket}`)).closed).toBe(4401);
      expect(await (await open(h(), `/api/hub?AreaId=1&access_token=${token}`)).closed).toBe(4401);
      // Programs that can send headers may use the bearer token there.
      const byHeader = await open(h(), '/api/hub?AreaId=1', { authorization: `Bearer ${token}` });
      await welcomed(byHeader);
      byHeader.socket.terminate();
      // A ticket is good for 30 seconds.
      const late = await hubUrl(h(), token, 1);
      h().clock.advance(31_000);
      expect(await (await open(h(), late)).closed).toBe(4401);
    });

    it('closes the connection with 4401 at logout', async () => {
      const token = await login(h().app, 'acadmin', DEMO_PASSWORD);
      const hub = await open(h(), await hubUrl(h(), token));
      await welcomed(hub);
      expect((await call(h().app, 'POST', '/api/Auth/logout', { token })).status).toBe(200);
      expect(await hub.closed).toBe(4401);
    });

    it('closes it when the user is disabled, and 4403 when the user loses the area', async () => {
      const admin = await login(h().app, 'admin', ADMIN_PASSWORD);
      const token = await makeUser(h(), 'hubwatcher', ['AccessControl/User'], [1, 2]);
      const inArea1 = await open(h(), await hubUrl(h(), token, 1));
      const inArea2 = await open(h(), await hubUrl(h(), token, 2));
      await welcomed(inArea1);
      await welcomed(inArea2);
      const user = await h()
        .db.kysely.selectFrom('AppUser')
        .select('Id')
        .where('UserName', '=', 'hubwatcher')
        .executeTakeFirstOrThrow();
      // The area's operators edited through the API (not the table): the edit itself re-checks the hub.
      const others = await h()
        .db.kysely.selectFrom('UserArea')
        .select('UserId')
        .where('AreaId', '=', 2)
        .where('UserId', '!=', user.Id)
        .execute();
      const edited = await call(h().app, 'POST', '/api/AreaInfo/SetAuth', {
        token: admin,
        query: { Id: 2, UserIds: others.map((r) => r.UserId).join(',') },
      });
      expect(edited.status, edited.msg).toBe(200);
      expect(await inArea2.closed).toBe(4403);
      expect(inArea1.socket.readyState).toBe(inArea1.socket.OPEN);
      const disabled = await call(h().app, 'POST', '/api/AppUser/SetStatus', {
        token: admin,
        area: 1,
        query: { Id: user.Id, Disabled: true },
      });
      expect(disabled.status, disabled.msg).toBe(200);
      expect(await inArea1.closed).toBe(4401);
    });

    it('closes it when the session expires from inactivity, though the socket itself stays busy', async () => {
      const token = await login(h().app, 'acuser', DEMO_PASSWORD);
      const hub = await open(h(), await hubUrl(h(), token));
      await welcomed(hub);
      h().clock.advance(h().config.sessionTtlSeconds * 1000 + 1);
      // The next heartbeat (every second here) checks the session again.
      expect(await hub.closed).toBe(4401);
    });
  },
  { HUB_HEARTBEAT: '1s' },
);

it('redacts credentials in logged URLs', () => {
  expect(redactUrl('/api/hub?AreaId=1&access_token=abc&ticket=def')).toBe(
    '/api/hub?AreaId=1&access_token=[redacted]&ticket=[redacted]',
  );
  expect(redactUrl('/api/AppUser?PageIndex=1')).toBe('/api/AppUser?PageIndex=1');
});
