import { randomBytes } from 'node:crypto';
import { eventTopic, type CatalogueEventType } from '@gatehouse/shared';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import mqtt, { type MqttClient } from 'mqtt';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../clock.ts';
import './tables.ts';

/**
 * MQTT (docs/integrations.md, "MQTT"; optional, MQTT_URL): the outbox's events published to the broker, each
 * to `gatehouse/<areaId>/<type>` with QoS 1, and the live state of doors and sockets as retained messages
 * (`gatehouse/<areaId>/state/door/<deviceId>-<doorNumber>`, `gatehouse/<areaId>/state/socket/<socketId>`), so
 * a subscriber that arrives late sees the present at once.
 *
 * The outbox is the source, read with its own mark (OutboxEvent.Published) apart from the webhooks': an event
 * is claimed (Published set to an instant a claim lasts until, FOR UPDATE SKIP LOCKED on PostgreSQL, so one
 * instance publishes it), published, then marked 1; a broker that is down or slow leaves events unpublished, to
 * be sent when it is back (mqtt.js reconnects by itself), and never slows the change that wrote them.
 */

const BATCH = 100;
const CLAIM_MS = 15_000;
const PUBLISH_TIMEOUT_MS = 5_000;

interface Claimed {
  Id: number;
  Type: string;
  AreaId: number;
  Payload: string;
}

/** The retained state topic an event also updates, if it is a state. */
export function stateTopic(type: string, areaId: number, data: Record<string, unknown>): string | undefined {
  if (type === 'door.state')
    return `gatehouse/${areaId}/state/door/${String(data.DeviceId)}-${String(data.DoorNumber)}`;
  if (type === 'socket.state') return `gatehouse/${areaId}/state/socket/${String(data.Id)}`;
  return undefined;
}

export class MqttPublisher {
  private readonly client: MqttClient;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private closed = false;

  constructor(
    private readonly deps: { db: Db; clock: Clock; url: string; instanceId: string; log?: FastifyBaseLogger },
  ) {
    this.client = mqtt.connect(deps.url, {
      clientId: `gatehouse-${deps.instanceId}-${randomBytes(4).toString('hex')}`.slice(0, 64),
      reconnectPeriod: 1_000,
      connectTimeout: 5_000,
    });
    // Errors are the broker's being away: logged, and the client reconnects by itself.
    this.client.on('error', (error) => deps.log?.warn({ err: error }, 'mqtt: broker error'));
  }

  start(everyMs = 200): void {
    const loop = () => {
      if (this.closed) return;
      this.running = this.pass()
        .catch((error: unknown) => this.deps.log?.warn({ err: error }, 'mqtt: a pass failed'))
        .finally(() => {
          if (!this.closed) this.timer = setTimeout(loop, everyMs);
        });
    };
    this.timer = setTimeout(loop, everyMs);
  }

  /** Claims what waits, publishes it in order, marks it; answers how many were published. */
  async pass(): Promise<number> {
    if (!this.client.connected) return 0;
    const claimed = await this.claim();
    let published = 0;
    try {
      for (const event of claimed) {
        await this.publish(event);
        published += 1;
      }
    } finally {
      const done = claimed.slice(0, published).map((e) => e.Id);
      const undone = claimed.slice(published).map((e) => e.Id);
      if (done.length > 0)
        await this.deps.db.kysely
          .updateTable('OutboxEvent')
          .set({ Published: 1 })
          .where('Id', 'in', done)
          .execute();
      // Not published (the broker went away): released at once for the next pass.
      if (undone.length > 0)
        await this.deps.db.kysely
          .updateTable('OutboxEvent')
          .set({ Published: 0 })
          .where('Id', 'in', undone)
          .execute();
    }
    return published;
  }

  private async claim(): Promise<Claimed[]> {
    const now = this.deps.clock.now();
    const lock = this.deps.db.dialect === 'postgres' ? sql` for update skip locked` : sql``;
    const result = await sql<Claimed>`
      update "OutboxEvent" set "Published" = ${now + CLAIM_MS}
      where "Id" in (
        select "Id" from "OutboxEvent"
        where "Published" = 0 or ("Published" > 1 and "Published" < ${now})
        order by "Id" limit ${BATCH}${lock}
      )
      returning "Id", "Type", "AreaId", "Payload"`.execute(this.deps.db.kysely);
    return [...result.rows].sort((a, b) => a.Id - b.Id);
  }

  private async publish(event: Claimed): Promise<void> {
    const send = async () => {
      await this.client.publishAsync(
        eventTopic(event.AreaId, event.Type as CatalogueEventType),
        event.Payload,
        {
          qos: 1,
        },
      );
      const data = (JSON.parse(event.Payload) as { data: Record<string, unknown> }).data;
      const state = stateTopic(event.Type, event.AreaId, data);
      if (state) await this.client.publishAsync(state, JSON.stringify(data), { qos: 1, retain: true });
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        send(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('mqtt: no acknowledgement in time')), PUBLISH_TIMEOUT_MS);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await this.client.endAsync(true);
  }
}
