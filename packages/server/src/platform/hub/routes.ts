import { HUB_PATH } from '@gatehouse/shared';
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../platform.ts';
import { parseAreaHeader } from '../area-guard.ts';
import { hashToken } from '../auth/tokens.ts';
import type { AreaHub } from './hub.ts';

/** Close codes: the session is gone (log in again), or the area is no longer the user's. */
export const HUB_SESSION_ENDED = 4401;
export const HUB_AREA_FORBIDDEN = 4403;

/**
 * GET /api/hub?AreaId=&ticket= upgrades to a WebSocket. Browsers cannot set headers on a WebSocket and a
 * session token in a URL is written to logs, so the browser first asks GetHubUrl for a one-time ticket
 * (30 s, one connection, bound to its session and area); other clients may send their bearer token in
 * the Authorization header instead. The connection lives only as long as its session: logout, expiry,
 * a disabled user or a lost area closes it (4401 / 4403), checked on every session change and before
 * every heartbeat.
 */
export function registerHub(app: FastifyInstance, platform: Platform, hub: AreaHub) {
  app.get(HUB_PATH, { websocket: true, schema: { hide: true } }, async (socket, request) => {
    const query = request.query as Record<string, string | undefined>;
    const areaId = parseAreaHeader(query.AreaId);
    const bearer = request.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
    const ticket = query.ticket ? await platform.hubTickets.redeem(query.ticket) : undefined;
    const tokenHash = ticket && ticket.areaId === areaId ? ticket.tokenHash : bearer && hashToken(bearer);
    const user = tokenHash ? await platform.sessions.peek(tokenHash) : null;
    if (!user || !tokenHash) return socket.close(HUB_SESSION_ENDED, 'unauthorized');
    if (areaId === undefined || !user.areaIds.has(areaId))
      return socket.close(HUB_AREA_FORBIDDEN, 'area forbidden');
    const leave = hub.join(areaId, socket, { tokenHash });
    socket.on('close', leave);
  });
}

/** Closes the connections whose session ended or whose user lost the area; `only` narrows to one session. */
export async function recheckHubSessions(platform: Platform, hub: AreaHub, only?: string): Promise<void> {
  for (const { client, areaId, owner } of hub.connections()) {
    if (!owner || (only && owner.tokenHash !== only)) continue;
    const user = await platform.sessions.peek(owner.tokenHash);
    if (!user) client.close(HUB_SESSION_ENDED, 'session ended');
    else if (!user.areaIds.has(areaId)) client.close(HUB_AREA_FORBIDDEN, 'area forbidden');
  }
}

/** Wires session changes to the hub: an ended session closes its connections at once. */
export function watchHubSessions(platform: Platform, hub: AreaHub): () => void {
  const recheck = (only?: string) =>
    void recheckHubSessions(platform, hub, only).catch((error: unknown) =>
      platform.log.error({ err: error }, 'hub session check'),
    );
  return platform.sessions.onChange((change) => recheck(change === 'all' ? undefined : change.tokenHash));
}
