import type { HubEvent, HubEventInput } from '@gatehouse/shared';

/** Something that can receive a text frame: a WebSocket, or a test double. */
export interface HubClient {
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** Whose session a connection rides on: it is closed when that session ends or loses the area. */
export interface HubOwner {
  tokenHash: string;
}

interface Member {
  areaId: number;
  owner: HubOwner | undefined;
}

/**
 * Live events per area. Device modules publish into it later; today it carries heartbeats so clients
 * can tell a quiet area from a dead connection. One timer serves every connection.
 */
export class AreaHub {
  private readonly clients = new Map<number, Set<HubClient>>();
  private readonly members = new Map<HubClient, Member>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly heartbeatMs: number,
    private readonly now: () => number,
    /** Runs before each heartbeat: the place to re-check that every connection's session still holds. */
    private readonly beforeHeartbeat?: () => void,
  ) {}

  join(areaId: number, client: HubClient, owner?: HubOwner): () => void {
    let set = this.clients.get(areaId);
    if (!set) this.clients.set(areaId, (set = new Set()));
    set.add(client);
    this.members.set(client, { areaId, owner });
    this.timer ??= setInterval(() => this.heartbeat(), this.heartbeatMs).unref();
    const welcome: HubEvent = { Type: 'Welcome', At: new Date(this.now()).toISOString(), AreaId: areaId };
    client.send(JSON.stringify(welcome));
    return () => {
      set.delete(client);
      this.members.delete(client);
      if (set.size === 0) this.clients.delete(areaId);
    };
  }

  /** Every connection with its area and owner (a snapshot: closing one while iterating is safe). */
  connections(): Array<{ client: HubClient; areaId: number; owner: HubOwner | undefined }> {
    return [...this.members].map(([client, m]) => ({ client, ...m }));
  }

  /** Sends an event (the contract's union, stamped with the server's time) to every browser of the area. */
  publish(areaId: number, event: HubEventInput): void {
    const text = JSON.stringify({ ...event, At: new Date(this.now()).toISOString() });
    for (const client of this.clients.get(areaId) ?? []) client.send(text);
  }

  connectionCount(): number {
    let n = 0;
    for (const set of this.clients.values()) n += set.size;
    return n;
  }

  private heartbeat(): void {
    this.beforeHeartbeat?.();
    for (const areaId of this.clients.keys()) this.publish(areaId, { Type: 'Heartbeat' });
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const set of this.clients.values())
      for (const client of set) client.close(1001, 'server shutting down');
    this.clients.clear();
    this.members.clear();
  }
}
