import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One delivery as a receiver got it, verified with the `standardwebhooks` package. */
export interface Received {
  id: string;
  timestamp: string;
  type: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  /** What this receiver answered. */
  answered: number;
  path: string;
}

/**
 * A webhook receiver on 127.0.0.1 (tests send nothing beyond loopback): it verifies every delivery's signature
 * with the published `standardwebhooks` library (a delivery that does not verify fails the test through
 * `unverified`), records it, and answers what `answer` says (200 by default) for each path.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  readonly unverified: string[] = [];
  private secrets = new Map<string, string>();
  private answers = new Map<string, number[]>();
  private server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = request.url ?? '/';
      const secret = this.secrets.get(path);
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
      );
      let payload: Received['payload'];
      try {
        if (!secret) throw new Error(`no secret for ${path}`);
        payload = new Webhook(secret).verify(body, headers) as Received['payload'];
      } catch (error) {
        this.unverified.push(`${path}: ${(error as Error).message}`);
        response.writeHead(400).end();
        return;
      }
      const queue = this.answers.get(path) ?? [];
      const status = queue.length > 0 ? queue.shift()! : 200;
      this.received.push({
        id: headers['webhook-id']!,
        timestamp: headers['webhook-timestamp']!,
        type: payload.type,
        payload,
        answered: status,
        path,
      });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'no');
    });
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  /** The secret a path's deliveries are verified with. */
  expect(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** The next statuses the path answers (then 200). */
  answer(path: string, ...statuses: number[]): void {
    this.answers.set(path, statuses);
  }

  on(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Waits until `check` holds (polling), or fails with `what` after `ms`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 5_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
