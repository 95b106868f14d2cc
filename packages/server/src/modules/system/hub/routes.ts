import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../../platform/platform.ts';
import { parseAreaHeader } from '../../../platform/area-guard.ts';
import type { AreaHub } from './hub.ts';

/**
 * GET /api/hub?AreaId=&access_token= upgrades to a WebSocket. Browsers cannot set headers on a
 * WebSocket, so the session token travels in the query; the same session and area rules apply:
 * 4401 closes a bad token, 4403 a foreign area.
 */
export function registerHub(app: FastifyInstance, platform: Platform, hub: AreaHub) {
  app.get('/api/hub', { websocket: true, schema: { hide: true } }, async (socket, request) => {
    const query = request.query as Record<string, string | undefined>;
    const token = query.access_token ?? request.headers.authorization?.replace(/^Bearer\s+/i, '');
    const user = token ? await platform.sessions.resolve(token) : null;
    if (!user) return socket.close(4401, 'unauthorized');
    const areaId = parseAreaHeader(query.AreaId);
    if (areaId === undefined || !user.areaIds.has(areaId)) return socket.close(4403, 'area forbidden');
    const leave = hub.join(areaId, socket);
    socket.on('close', leave);
  });
}
