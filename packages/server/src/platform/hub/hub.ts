import type { HubEvent, HubEventInput } from '@gatehouse/shared';
import type { Bus, Json } from '../cluster/bus.ts';

/** The bus channel carrying live events between instances. */
const CHANNEL = 'hub';

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
  /** Closed (a drain, or the app closing): a connection arriving now is closed at once, to reconnect elsewhere. */
  private closed = false;

  constructor(
    private readonly heartbeatMs: number,
    private readonly now: () => number,
    /** Runs before each heartbeat: the place to re-check that every connection's session still holds. */
    private readonly beforeHeartbeat?: () => void,
    /**
     * The cluster's bus: an event published on any instance reaches the browsers of every instance (each
     * delivers to its own connections). Without it, this process's browsers only.
     */
    private readonly bus?: Bus,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    bus?.subscribe(CHANNEL, (message) => {
      const { a, e } = message as { a: number; e: HubEvent };
      this.deliver(a, JSON.stringify(e));
    });
  }

  join(areaId: number, client: HubClient, owner?: HubOwner): () => void {
    if (this.closed) {
      client.close(1001, 'server shutting down');
      return () => {};
    }
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

  /**
   * Sends an event (the contract's union) to every browser of the area, stamped with the server's time unless
   * it carries its own (a swipe's At is when the door was used, whenever it was collected).
   */
  publish(areaId: number, event: HubEventInput): void {
    const stamped = { At: new Date(this.now()).toISOString(), ...event };
    if (this.bus) this.bus.publish(CHANNEL, { a: areaId, e: stamped as unknown as Json }).catch(this.onError);
    else this.deliver(areaId, JSON.stringify(stamped));
  }

  private deliver(areaId: number, text: string): void {
    for (const client of this.clients.get(areaId) ?? []) client.send(text);
  }

  connectionCount(): number {
    let n = 0;
    for (const set of this.clients.values()) n += set.size;
    return n;
  }

  private heartbeat(): void {
    this.beforeHeartbeat?.();
    // This instance's own connections only: every instance beats for its own.
    const beat = JSON.stringify({
      Type: 'Heartbeat',
      At: new Date(this.now()).toISOString(),
    } satisfies HubEvent);
    for (const areaId of this.clients.keys()) this.deliver(areaId, beat);
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    for (const set of this.clients.values())
      for (const client of set) client.close(1001, 'server shutting down');
    this.clients.clear();
    this.members.clear();
  }
}
