import { useEffect, useRef } from 'react';
import { AreaInfoApi, type HubEvent, type HubEventOf, type HubEventType } from '@gatehouse/shared';
import { useAreaStore } from '../stores/area.ts';
import { getToken } from '../stores/session.ts';
import { call } from './api.ts';
import { queryClient } from './query-client.ts';

/** One event of an area's live hub: the contract's union (docs/api.md, "Live-event hub"). */
export type HubMessage = HubEvent;

type Listener = (message: HubEvent) => void;

/** What the connection needs from the browser and the API; injected so it can be tested without either. */
export interface HubDeps {
  /** A fresh relative hub address with a one-time ticket for this area. */
  ticketUrl(areaId: number): Promise<string>;
  open(url: string): WebSocketLike;
  /** The page's own origin: the relative address is resolved against it (ws: or wss: after its scheme). */
  origin(): string;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /**
   * A connection opened after one was lost: the events of the gap never came, so whatever the screens hold may be
   * out of date and reloads.
   */
  resync(): void;
}

export interface WebSocketLike {
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  close(): void;
}

/**
 * Close codes after which reconnecting is pointless until the area changes: the user lost the area. Any
 * other close (an instance restarting or killed, a proxy, a ticket refused) retries with a fresh ticket, on
 * whichever instance answers; a session that really ended fails to get a ticket, and the next API call tells
 * the operator.
 */
const FINAL_CODES = new Set([4403]);
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/**
 * One WebSocket to the current area's hub, shared by every open screen: each reconnect asks for a new
 * one-time ticket; a lost connection retries with growing pauses (to any instance of a cluster), and once one
 * opens again the screens reload what the missed events may have changed; a lost area (4403) stops it until
 * `connect` is called again.
 */
export class HubConnection {
  private readonly listeners = new Set<Listener>();
  private socket: WebSocketLike | undefined;
  private areaId: number | null = null;
  private retryMs = RETRY_MIN_MS;
  private retryTimer: unknown;
  private generation = 0;
  /** A connection to this area was lost and none has opened since: events may have been missed. */
  private missed = false;

  constructor(private readonly deps: HubDeps) {}

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Follows this area (null: none); a no-op when already connected to it. */
  connect(areaId: number | null): void {
    if (areaId === this.areaId && (this.socket || this.retryTimer !== undefined)) return;
    this.disconnect();
    this.areaId = areaId;
    if (areaId !== null) void this.open(++this.generation);
  }

  disconnect(): void {
    this.generation++;
    this.areaId = null;
    // Another area (or none): its screens load afresh, nothing to catch up on.
    this.missed = false;
    if (this.retryTimer !== undefined) this.deps.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.onclose = null;
      socket.close();
    }
  }

  private async open(generation: number): Promise<void> {
    const areaId = this.areaId;
    if (areaId === null) return;
    let url: string;
    try {
      url = await this.deps.ticketUrl(areaId);
    } catch {
      if (generation === this.generation) this.retry(generation);
      return;
    }
    if (generation !== this.generation) return;
    const absolute = new URL(url, this.deps.origin());
    absolute.protocol = absolute.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = this.deps.open(absolute.href);
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket || !this.missed) return;
      this.missed = false;
      this.deps.resync();
    };
    socket.onmessage = (event) => {
      this.retryMs = RETRY_MIN_MS;
      let message: HubEvent;
      try {
        message = JSON.parse(String(event.data)) as HubEvent;
      } catch {
        return;
      }
      for (const listener of this.listeners) listener(message);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.missed = true;
      if (!FINAL_CODES.has(event.code)) this.retry(generation);
    };
  }

  private retry(generation: number) {
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.retryTimer = this.deps.setTimeout(() => {
      this.retryTimer = undefined;
      if (generation === this.generation) void this.open(generation);
    }, wait);
  }
}

/** The app's hub connection: the current area's, while a session exists. */
export const hub = new HubConnection({
  ticketUrl: (areaId) => call(AreaInfoApi.hubUrl, { query: { Id: areaId } }, { silent: true }),
  // The browser's WebSocket types its handlers with `this` and full event classes; the connection only
  // assigns handlers and reads `data` and `code`, which is what WebSocketLike declares.
  open: (url) => new WebSocket(url) as unknown as WebSocketLike,
  origin: () => window.location.origin,
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
  // Every query is stale: those on screen reload now, the cached tabs' when shown again (filters and page kept).
  resync: () => void queryClient.invalidateQueries(),
});

/**
 * Calls `handler` for hub events of these types while the component is mounted, and keeps the shared
 * connection on the current area. The handler may change between renders without resubscribing.
 */
export function useHubEvents<K extends HubEventType>(
  types: readonly K[],
  handler: (message: HubEventOf<K>) => void,
): void {
  const areaId = useAreaStore((s) => s.current?.Id ?? null);
  const latest = useRef(handler);
  latest.current = handler;
  const key = types.join(',');
  useEffect(() => {
    hub.connect(getToken() ? areaId : null);
    const wanted = new Set(key.split(','));
    return hub.subscribe((message) => {
      if (wanted.has(message.Type)) latest.current(message as HubEventOf<K>);
    });
  }, [areaId, key]);
}
