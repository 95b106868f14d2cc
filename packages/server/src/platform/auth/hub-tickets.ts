import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.ts';

export interface HubTicket {
  tokenHash: string;
  areaId: number;
}

/** A ticket is good for this long, and for one connection. */
const TICKET_TTL_MS = 30_000;
const MAX_TICKETS = 10_000;

/**
 * One-time tickets for the live hub's WebSocket. Browsers cannot send headers with a WebSocket, and a
 * session token in the URL ends up in logs and proxies; a ticket is short-lived, single-use and names
 * one session and one area, so a leaked one is worth nothing a few seconds later.
 */
export class HubTickets {
  private readonly tickets = new Map<string, HubTicket & { expires: number }>();

  constructor(private readonly clock: Clock) {}

  issue(ticket: HubTicket): string {
    const now = this.clock.now();
    for (const [key, entry] of this.tickets) if (entry.expires <= now) this.tickets.delete(key);
    if (this.tickets.size >= MAX_TICKETS) this.tickets.delete(this.tickets.keys().next().value as string);
    const id = randomBytes(24).toString('base64url');
    this.tickets.set(id, { ...ticket, expires: now + TICKET_TTL_MS });
    return id;
  }

  /** The ticket's session and area, once; undefined when unknown, used or expired. */
  redeem(id: string): HubTicket | undefined {
    const entry = this.tickets.get(id);
    if (!entry) return undefined;
    this.tickets.delete(id);
    return entry.expires > this.clock.now()
      ? { tokenHash: entry.tokenHash, areaId: entry.areaId }
      : undefined;
  }
}
