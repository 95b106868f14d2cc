import {
  API_DOCS_PATH,
  CATALOGUE_EVENT_TYPES,
  cataloguePayload,
  eventCatalogue,
  type CatalogueEventType,
} from '@gatehouse/shared';
import { z } from 'zod';

/**
 * The AsyncAPI 3.0 document of the event catalogue (packages/shared, contract/event-catalogue.ts), served at
 * ASYNCAPI_PATH (app.ts) beside the OpenAPI document and generated the same way: from the zod declarations, never
 * written by hand, so an event cannot change without its description.
 *
 * One catalogue, two transports: every type is a channel on the MQTT broker (`gatehouse/{areaId}/<type>`,
 * QoS 1, not retained), and every type is also a message of the webhook channel, whose address is each
 * subscription's own URL (null in AsyncAPI: known only at run time). Gatehouse publishes both: `send`.
 */

/** A payload schema as JSON Schema (draft-07, which AsyncAPI's schema format extends). */
export function payloadJsonSchema(type: CatalogueEventType): Record<string, unknown> {
  const schema = z.toJSONSchema(cataloguePayload(type), {
    target: 'draft-7',
    // The input side: objects without `additionalProperties: false`, so a field added later to an event breaks
    // no receiver that validates against an older copy of this document.
    io: 'input',
    unrepresentable: 'any',
    override(ctx) {
      // An instant says `format: date-time`; zod's pattern spelling out every leap year helps no reader.
      if (ctx.jsonSchema.format === 'date-time') delete ctx.jsonSchema.pattern;
    },
  }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** The Standard Webhooks headers every delivery carries (docs/integrations.md). */
const webhookHeaders = {
  type: 'object',
  properties: {
    'webhook-id': {
      type: 'string',
      description: "The event's id: the same on every retry and replay, the receiver's idempotency key",
    },
    'webhook-timestamp': { type: 'string', description: 'Unix seconds of this attempt' },
    'webhook-signature': {
      type: 'string',
      description:
        'Space-separated `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, one per active secret',
    },
  },
  required: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
};

/** Where the events go: the webhook receivers and the MQTT broker (a fresh object for each document). */
function servers(): Record<string, unknown> {
  return {
    webhook: {
      host: '{receiver}',
      protocol: 'https',
      title: 'A webhook receiver',
      description:
        "The receiver named by a webhook subscription's Url (http is allowed for addresses the operator allows).",
      variables: { receiver: { description: "Host and port of the subscription's Url" } },
    },
    mqtt: {
      host: '{broker}',
      protocol: 'mqtt',
      title: 'The MQTT broker',
      description: 'The broker MQTT_URL names; Gatehouse publishes there when MQTT_URL is set.',
      variables: { broker: { default: '127.0.0.1:1883', description: "MQTT_URL's host and port" } },
    },
  };
}

/** Builds the document. `version` is the API's (the OpenAPI document's info.version). */
export function asyncApiDocument(version: string): Record<string, unknown> {
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};

  for (const type of CATALOGUE_EVENT_TYPES) {
    const { summary, module } = eventCatalogue[type];
    schemas[type] = payloadJsonSchema(type);
    messages[type] = {
      name: type,
      title: type,
      summary,
      contentType: 'application/json',
      tags: [{ name: module }],
      payload: { $ref: `#/components/schemas/${type}` },
      bindings: { http: { headers: webhookHeaders, bindingVersion: '0.3.0' } },
    };
    channels[type] = {
      address: `gatehouse/{areaId}/${type}`,
      title: type,
      summary,
      servers: [{ $ref: '#/servers/mqtt' }],
      parameters: { areaId: { description: 'The id of the area the event happened in (AreaInfo.Id)' } },
      messages: { [type]: { $ref: `#/components/messages/${type}` } },
    };
    operations[`publish.${type}`] = {
      action: 'send',
      title: `Publish ${type}`,
      summary: `Gatehouse publishes ${type} to the area's topic`,
      channel: { $ref: `#/channels/${type}` },
      messages: [{ $ref: `#/channels/${type}/messages/${type}` }],
      bindings: { mqtt: { qos: 1, retain: false, bindingVersion: '0.2.0' } },
    };
  }
  channels.webhook = {
    // Each subscription's URL: known at run time only.
    address: null,
    title: 'Webhook deliveries',
    description:
      'An HTTP POST to the URL of each webhook subscription whose areas and events include the event, signed ' +
      'after the Standard Webhooks specification (standardwebhooks.com). Delivered at least once, in order per ' +
      'subscription; a receiver answers 2xx to acknowledge.',
    servers: [{ $ref: '#/servers/webhook' }],
    messages: Object.fromEntries(
      CATALOGUE_EVENT_TYPES.map((type) => [type, { $ref: `#/components/messages/${type}` }]),
    ),
  };
  operations.deliverWebhook = {
    action: 'send',
    title: 'Deliver a webhook',
    summary: 'Gatehouse POSTs each event to the subscriptions that asked for it',
    channel: { $ref: '#/channels/webhook' },
    messages: CATALOGUE_EVENT_TYPES.map((type) => ({ $ref: `#/channels/webhook/messages/${type}` })),
    bindings: { http: { method: 'POST', bindingVersion: '0.3.0' } },
  };

  return {
    asyncapi: '3.0.0',
    id: 'urn:gatehouse:events',
    info: {
      title: 'Gatehouse events',
      version,
      description:
        "Every event Gatehouse tells the site's other systems about, declared once (the event catalogue). " +
        'The same payload on every transport: `{ type, timestamp, data }`, where data is what an operator sees ' +
        "of the object (the REST API's list item, in its PascalCase) with its area. The REST API is described " +
        `by the OpenAPI document at ${API_DOCS_PATH}/json.`,
    },
    defaultContentType: 'application/json',
    servers: servers(),
    channels,
    operations,
    components: { schemas, messages },
  };
}
