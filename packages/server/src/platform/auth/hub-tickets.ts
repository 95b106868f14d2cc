import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../clock.ts';

export interface HubTicket {
  tokenHash: string;
  areaId: number;
}

/** A ticket is good for this long, and for one connection. */
const TICKET_TTL_MS = 30_000;

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('base64url');

/**
 * One-time tickets for the live hub's WebSocket. Browsers cannot send headers with a WebSocket, and a
 * session token in the URL ends up in logs and proxies; a ticket is short-lived, single-use and names
 * one session and one area, so a leaked one is worth nothing a few seconds later. Kept in the database
 * (only their hash), so a ticket issued by one instance opens the hub on whichever instance the browser's
 * WebSocket reaches; redeemed by one DELETE, so it opens one connection only, even if two race.
 */
export class HubTickets {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async issue(ticket: HubTicket): Promise<string> {
    const now = this.clock.now();
    const id = randomBytes(24).toString('base64url');
    await this.db.kysely.deleteFrom('HubTicket').where('ExpiresAt', '<=', now).execute();
    await this.db.kysely
      .insertInto('HubTicket')
      .values({
        TicketHash: hashOf(id),
        TokenHash: ticket.tokenHash,
        AreaId: ticket.areaId,
        ExpiresAt: now + TICKET_TTL_MS,
      })
      .execute();
    return id;
  }

  /** The ticket's session and area, once; undefined when unknown, used or expired. */
  async redeem(id: string): Promise<HubTicket | undefined> {
    const row = await this.db.kysely
      .deleteFrom('HubTicket')
      .where('TicketHash', '=', hashOf(id))
      .returning(['TokenHash', 'AreaId', 'ExpiresAt'])
      .executeTakeFirst();
    if (!row || Number(row.ExpiresAt) <= this.clock.now()) return undefined;
    return { tokenHash: row.TokenHash, areaId: row.AreaId };
  }
}
