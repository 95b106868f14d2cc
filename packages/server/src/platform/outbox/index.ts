import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../clock.ts';
import type { Metrics } from '../metrics.ts';
import { MqttPublisher } from './mqtt.ts';
import { TargetPolicy } from './target.ts';
import { outboxAgeSeconds, WebhookWorker } from './webhooks.ts';

/**
 * The outbox's readers on this instance (docs/integrations.md): the webhook worker always (with no subscription
 * it only marks events dispatched), the MQTT publisher when MQTT_URL is set. Each reads the outbox on its own,
 * so a broker that is down holds back nothing of the webhooks, and neither ever slows the operator's change
 * that wrote the event.
 */
export interface Outbox {
  webhooks: WebhookWorker;
  /** Present when MQTT_URL is set. */
  mqtt: MqttPublisher | undefined;
  ageSeconds(): Promise<number>;
  close(): Promise<void>;
}

export function startOutbox(deps: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  config: Config;
  metrics?: Metrics;
}): Outbox {
  const webhooks = new WebhookWorker({
    db: deps.db,
    clock: deps.clock,
    log: deps.log,
    metrics: deps.metrics,
    policy: new TargetPolicy(deps.config.webhookAllowNetworks),
  });
  webhooks.start();
  const url = deps.config.mqttUrl;
  const mqtt = url
    ? new MqttPublisher({
        db: deps.db,
        clock: deps.clock,
        url,
        instanceId: deps.config.instanceId,
        log: deps.log,
      })
    : undefined;
  mqtt?.start();
  return {
    webhooks,
    mqtt,
    ageSeconds: () => outboxAgeSeconds(deps.db, deps.clock),
    async close() {
      await webhooks.close();
      await mqtt?.close();
    },
  };
}
