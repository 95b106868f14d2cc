import { WebhookApi, WebhookDeliveryApi } from '@gatehouse/shared';
import {
  createWebhook,
  deleteWebhook,
  replayDeliveries,
  rotateWebhookSecret,
  updateWebhook,
} from '../../../platform/outbox/subscriptions.ts';
import { TargetPolicy } from '../../../platform/outbox/target.ts';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { shownWebhook, webhookDeliveryList, webhookList } from './service.ts';

/**
 * Webhooks (issue 29): lists from the resource helper; writes through the platform's webhook store (its one
 * writer), each URL checked against WEBHOOK_ALLOW_NETWORKS before it is stored. People only (the contract).
 */
const policyOf = (ctx: {
  platform: { config: { webhookAllowNetworks: ConstructorParameters<typeof TargetPolicy>[0] } };
}) => new TargetPolicy(ctx.platform.config.webhookAllowNetworks);

export const webhookRoutes = [
  ...implementResource(WebhookApi, webhookList),
  route(WebhookApi.create, async ({ body }, ctx) => {
    const { id, secret } = await createWebhook(ctx, policyOf(ctx), body, {
      name: ctx.user.userName,
    });
    return { ...(await shownWebhook(ctx, id)), Secret: secret };
  }),
  route(WebhookApi.update, async ({ body }, ctx) => {
    await updateWebhook(ctx, policyOf(ctx), body);
    return shownWebhook(ctx, body.Id);
  }),
  route(WebhookApi.remove, async ({ params }, ctx) => {
    await deleteWebhook(ctx, params.Id);
    return null;
  }),
  route(WebhookApi.rotateSecret, async ({ query }, ctx) => {
    const secret = await rotateWebhookSecret(ctx, query.Id);
    return { ...(await shownWebhook(ctx, query.Id)), Secret: secret };
  }),
  ...implementResource(WebhookDeliveryApi, webhookDeliveryList),
  route(WebhookDeliveryApi.replay, async ({ body }, ctx) => ({
    Replayed: await replayDeliveries(ctx.db, ctx.clock, body),
  })),
];
