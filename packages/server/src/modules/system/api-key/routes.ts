import { ApiKeyApi } from '@gatehouse/shared';
import { implementResource } from '../../../platform/resource.ts';
import { route } from '../../../platform/route.ts';
import { apiKeyList, createApiKey, revokeApiKey } from './service.ts';

/**
 * API keys (issue 29): the list and detail from the resource helper; making and revoking a key are the
 * module's own operations, written through the platform's key store (its one writer). The contract marks them
 * for people only: a key never manages keys.
 */
export const apiKeyRoutes = [
  ...implementResource(ApiKeyApi, apiKeyList),
  route(ApiKeyApi.create, ({ body }, ctx) => createApiKey(ctx, ctx.platform.apiKeys, body)),
  route(ApiKeyApi.revoke, ({ query }, ctx) => revokeApiKey(ctx, ctx.platform.apiKeys, query.Id)),
];
