import { Parser } from '@asyncapi/parser';
import {
  ASYNCAPI_PATH,
  CATALOGUE_EVENT_TYPES,
  cataloguePayload,
  eventCatalogue,
  type CatalogueEventType,
} from '@gatehouse/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { payloadJsonSchema } from '../src/platform/asyncapi.ts';
import { login } from './support/client.ts';
import { ADMIN_PASSWORD, DEMO_PASSWORD, describeEachDb, type Harness } from './support/harness.ts';

type Doc = {
  asyncapi: string;
  servers: Record<string, { protocol: string }>;
  channels: Record<
    string,
    { address: string | null; servers: { $ref: string }[]; messages: Record<string, { $ref: string }> }
  >;
  operations: Record<string, { action: string; channel: { $ref: string }; messages: { $ref: string }[] }>;
  components: {
    messages: Record<string, { payload: { $ref: string } }>;
    schemas: Record<string, { properties: { data: { properties?: Record<string, unknown> } } }>;
  };
};

/** The served document, read as a signed-in caller (API_DOCS defaults to signed-in, as for OpenAPI). */
async function readDocument(h: () => Harness) {
  const token = await login(h().app, 'acuser', DEMO_PASSWORD);
  return h().app.inject({ method: 'GET', url: ASYNCAPI_PATH, headers: { authorization: `Bearer ${token}` } });
}

/** Follows a local `$ref` ('#/a/b/c') in the document, and the reference found there if it is one. */
function resolve(doc: unknown, ref: string): unknown {
  const found = ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc) as { $ref?: string };
  return found.$ref ? resolve(doc, found.$ref) : found;
}

describe('the event catalogue', () => {
  it('holds at least the types issue 29 names, each with a payload schema that parses its envelope', () => {
    const required = [
      'swipe.recorded',
      'door.state',
      'door.alarm.raised',
      'door.alarm.acknowledged',
      'controller.online',
      'controller.offline',
      'charging.session.started',
      'charging.session.ended',
      'socket.state',
      'socket.power_off',
      'order.settled',
      'holder.created',
      'holder.updated',
      'holder.deleted',
      'authorisation.changed',
    ];
    expect(CATALOGUE_EVENT_TYPES).toEqual(expect.arrayContaining(required));
    for (const type of CATALOGUE_EVENT_TYPES) expect(type).toMatch(/^[a-z]+(\.[a-z_]+)+$/);
    // The envelope is checked: a wrong type, a timestamp that is not an instant, data missing its area.
    const payload = cataloguePayload('holder.deleted');
    const data = { Id: 7, Name: '张伟', CardNumbers: ['0012345678'], AreaId: 1, AreaName: '滨江花园社区' };
    expect(
      payload.safeParse({ type: 'holder.deleted', timestamp: '2026-11-01T08:00:00.000Z', data }).success,
    ).toBe(true);
    expect(
      payload.safeParse({ type: 'holder.created', timestamp: '2026-11-01T08:00:00Z', data }).success,
    ).toBe(false);
    expect(payload.safeParse({ type: 'holder.deleted', timestamp: 'yesterday', data }).success).toBe(false);
    const { AreaName: _dropped, ...noArea } = data;
    expect(
      payload.safeParse({ type: 'holder.deleted', timestamp: '2026-11-01T08:00:00Z', data: noArea }).success,
    ).toBe(false);
  });

  it("carries the values an operator sees: a swipe's card, holder, door, result and reason; a power-off's socket, operator, reason and outcome", () => {
    const fields = (type: CatalogueEventType) =>
      Object.keys((eventCatalogue[type].data as z.ZodObject).shape);
    expect(fields('swipe.recorded')).toEqual(
      expect.arrayContaining([
        'AreaId',
        'AreaName',
        'CardNumber',
        'CardUserId',
        'HolderName',
        'DeviceId',
        'DeviceName',
        'ChannelId',
        'ChannelName',
        'DoorNumber',
        'Direction',
        'Result',
        'Reason',
      ]),
    );
    expect(fields('socket.power_off')).toEqual(
      expect.arrayContaining([
        'AreaId',
        'ChargeEquipmentId',
        'PortNumber',
        'HostName',
        'ZoneName',
        'UserName',
        'Reason',
        'Result',
        'ResultReason',
        'OrderNo',
        'AmountCents',
      ]),
    );
    // An order is either kind, told apart by Kind; the buttons a caller may press are not an event's business.
    const order = z.toJSONSchema(cataloguePayload('order.settled'), { target: 'draft-7', io: 'input' });
    expect(JSON.stringify(order)).toContain('"ChargeOrder"');
    expect(JSON.stringify(order)).toContain('"ParkOrder"');
    expect(JSON.stringify(order)).not.toContain('"Actions"');
  });
});

describeEachDb('AsyncAPI document', (h) => {
  it('is valid AsyncAPI 3.0 under @asyncapi/parser, with no error', async () => {
    const response = await readDocument(h);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const { document, diagnostics } = await new Parser().parse(response.body);
    // Severity 0 is an error (1 warning, 2 information, 3 hint).
    expect(diagnostics.filter((d) => d.severity === 0)).toEqual([]);
    expect(document).toBeDefined();
    expect(document!.version()).toBe('3.0.0');
    expect(document!.allMessages().length).toBe(CATALOGUE_EVENT_TYPES.length);
  });

  it('describes every catalogue type: its MQTT channel, a send operation and its payload schema, and the webhook channel', async () => {
    const doc = (await readDocument(h)).json() as Doc;
    expect(doc.asyncapi).toBe('3.0.0');
    expect(Object.values(doc.servers).map((s) => s.protocol)).toEqual(
      expect.arrayContaining(['https', 'mqtt']),
    );
    for (const type of CATALOGUE_EVENT_TYPES) {
      const channel = doc.channels[type]!;
      expect(channel.address, type).toBe(`gatehouse/{areaId}/${type}`);
      expect(channel.servers).toEqual([{ $ref: '#/servers/mqtt' }]);
      const operation = Object.values(doc.operations).find((o) => o.channel.$ref === `#/channels/${type}`);
      expect(operation?.action, type).toBe('send');
      const message = resolve(doc, operation!.messages[0]!.$ref) as { payload: { $ref: string } };
      // The payload is the catalogue's zod schema, converted: same fields, same required ones.
      expect(resolve(doc, message.payload.$ref), type).toEqual(payloadJsonSchema(type));
      const fromZod = z.toJSONSchema(cataloguePayload(type), { io: 'input' }) as unknown as {
        properties: { data: { properties?: object } };
      };
      const served = doc.components.schemas[type]!;
      expect(Object.keys(served.properties)).toEqual(['type', 'timestamp', 'data']);
      expect(Object.keys(served.properties.data.properties ?? {})).toEqual(
        Object.keys(fromZod.properties.data.properties ?? {}),
      );
      // And it can be delivered as a webhook.
      expect(doc.channels.webhook!.messages[type], type).toEqual({ $ref: `#/components/messages/${type}` });
    }
    expect(doc.channels.webhook!.address).toBeNull();
    expect(doc.operations.deliverWebhook!.action).toBe('send');
  });

  it('follows API_DOCS like the OpenAPI document, which links to it', async () => {
    expect((await h().app.inject({ method: 'GET', url: ASYNCAPI_PATH })).statusCode).toBe(401);
    const token = await login(h().app, 'admin', ADMIN_PASSWORD);
    const openApi = await h().app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { authorization: `Bearer ${token}` },
    });
    expect((openApi.json() as { info: { description: string } }).info.description).toContain(
      `(${ASYNCAPI_PATH})`,
    );
  });
});

describeEachDb(
  'AsyncAPI document with API_DOCS=off',
  (h) => {
    it('is not served, even to the administrator', async () => {
      const token = await login(h().app, 'admin', ADMIN_PASSWORD);
      const raw = await h().app.inject({
        method: 'GET',
        url: ASYNCAPI_PATH,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(raw.statusCode).toBe(404);
    });
  },
  { API_DOCS: 'off' },
);
