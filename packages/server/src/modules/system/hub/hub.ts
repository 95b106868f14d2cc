/** Something that can receive a text frame: a WebSocket, or a test double. */
export interface HubClient {
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface HubEvent {
  type: string;
  at: string;
  [key: string]: unknown;
}

/**
 * Live events per area. Device modules publish into it later; today it carries heartbeats so clients
 * can tell a quiet area from a dead connection. One timer serves every connection.
 */
export class AreaHub {
  private readonly clients = new Map<number, Set<HubClient>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly heartbeatMs: number,
    private readonly now: () => number,
  ) {}

  join(areaId: number, client: HubClient): () => void {
    let set = this.clients.get(areaId);
    if (!set) this.clients.set(areaId, (set = new Set()));
    set.add(client);
    this.timer ??= setInterval(() => this.heartbeat(), this.heartbeatMs).unref();
    client.send(JSON.stringify({ type: 'welcome', at: new Date(this.now()).toISOString(), AreaId: areaId }));
    return () => {
      set.delete(client);
      if (set.size === 0) this.clients.delete(areaId);
    };
  }

  publish(areaId: number, event: Omit<HubEvent, 'at'>): void {
    const text = JSON.stringify({ ...event, at: new Date(this.now()).toISOString() });
    for (const client of this.clients.get(areaId) ?? []) client.send(text);
  }

  connectionCount(): number {
    let n = 0;
    for (const set of this.clients.values()) n += set.size;
    return n;
  }

  private heartbeat(): void {
    for (const areaId of this.clients.keys()) this.publish(areaId, { type: 'heartbeat' });
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const set of this.clients.values())
      for (const client of set) client.close(1001, 'server shutting down');
    this.clients.clear();
  }
}
