import { EventEmitter } from 'node:events';
import { RPCClient } from 'ocpp-rpc';
import { Configuration } from './configuration.ts';
import type { ChargePointOptions } from './types.ts';
import type { BootNotificationConf } from './ocpp.ts';

/**
 * The connection half of a simulated charge point, apart from its connectors and transactions (charge-point.ts)
 * so each file holds one job (issue 28): the ocpp-rpc client in strict mode, the boot and its retries, the
 * heartbeat and meter timers and the configuration keys that set them. What the connection needs of the charge
 * point (report its connectors, resend its queue, meter, answer the central system's calls) are the abstract
 * members below.
 */
export abstract class ChargePointConnection extends EventEmitter {
  readonly id: string;
  private client: RPCClient | undefined;
  protected readonly now: () => number;
  private readonly speed: number;
  private heartbeatSeconds = 60;
  private meterSeconds: number;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private meterTimer: NodeJS.Timeout | undefined;
  private bootTimer: NodeJS.Timeout | undefined;
  bootStatus: BootNotificationConf['status'] | 'none' = 'none';
  /** Its configuration keys (GetConfiguration, ChangeConfiguration). */
  readonly configuration: Configuration;

  constructor(protected readonly options: ChargePointOptions) {
    super();
    this.id = options.id;
    this.now = options.now ?? Date.now;
    this.speed = options.speed ?? 1;
    this.meterSeconds = options.meterIntervalSeconds ?? 60;
    this.configuration = new Configuration(
      {
        heartbeatSeconds: this.heartbeatSeconds,
        meterSeconds: this.meterSeconds,
        connectors: options.connectors,
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        ...(options.smartCharging !== undefined ? { smartCharging: options.smartCharging } : {}),
      },
      (key, seconds) => {
        if (key === 'HeartbeatInterval') this.heartbeatSeconds = seconds;
        if (key === 'MeterValueSampleInterval') this.meterSeconds = seconds;
        if (this.online && this.bootStatus === 'Accepted') this.startTimers();
      },
    );
  }

  /** StatusNotification for the charge point and every connector. */
  protected abstract reportAll(): Promise<void>;
  /** Resends the queued transaction messages in order. */
  abstract flush(): Promise<void>;
  /** Advances the running transactions by simulated seconds and sends their MeterValues. */
  abstract advance(seconds: number): Promise<void>;
  /** Registers the answers to the central system's calls on a new client. */
  protected abstract answerCalls(client: RPCClient): void;

  get online(): boolean {
    return this.client?.state === RPCClient.OPEN;
  }

  protected iso(): string {
    return new Date(this.now()).toISOString();
  }

  protected log(text: string): void {
    this.emit('log', `[${this.id}] ${text}`);
  }

  /** Connects and boots; rejects when the handshake is refused (unknown id, wrong password). */
  async goOnline(): Promise<void> {
    if (this.client && this.client.state !== RPCClient.CLOSED) return;
    const client = this.createClient();
    this.client = client;
    try {
      await client.connect();
    } catch (error) {
      this.client = undefined;
      throw error;
    }
  }

  /** Drops the connection as a network failure would; transaction messages queue until goOnline. */
  async goOffline(): Promise<void> {
    this.stopTimers();
    const client = this.client;
    this.client = undefined;
    if (client) await client.close({ force: true });
    this.emit('offline');
  }

  /** Stops everything (no reconnect). */
  async close(): Promise<void> {
    await this.goOffline();
    this.removeAllListeners();
  }

  private createClient(): RPCClient {
    // The typings mark every option required; the library fills in the ones left out.
    const client = new RPCClient({
      endpoint: this.options.url,
      identity: this.id,
      protocols: ['ocpp1.6'],
      strictMode: true,
      ...(this.options.password !== undefined ? { password: this.options.password } : {}),
      callTimeoutMs: this.options.callTimeoutMs ?? 30_000,
      reconnect: true,
      backoff: { initialDelay: 1000, maxDelay: 30_000, factor: 2, randomisationFactor: 0.25 },
    } as ConstructorParameters<typeof RPCClient>[0]);
    client.on('open', () => {
      this.emit('online');
      void this.afterOpen();
    });
    client.on('disconnect', () => {
      this.stopTimers();
      this.emit('offline');
    });
    client.on('strictValidationFailure', (event: unknown) => {
      this.log(
        `strict validation failure: ${JSON.stringify(event, (k, v: unknown) => (k === 'error' ? String(v) : v))}`,
      );
    });
    this.answerCalls(client);
    return client;
  }

  /** Every (re)connection: boot unless already accepted, then report the connectors and resend the queue. */
  private async afterOpen(): Promise<void> {
    try {
      if (this.bootStatus !== 'Accepted') {
        await this.boot();
        return;
      }
      this.startTimers();
      await this.reportAll();
      await this.flush();
    } catch (error) {
      this.log(`after connect: ${String(error)}`);
    }
  }

  protected async boot(): Promise<void> {
    clearTimeout(this.bootTimer);
    const conf = (await this.call('BootNotification', {
      chargePointVendor: this.options.vendor ?? 'Gatehouse',
      chargePointModel: this.options.model ?? 'EBikeSim',
      chargePointSerialNumber: this.id.slice(0, 25),
      firmwareVersion: '1.0.0',
    })) as BootNotificationConf;
    this.bootStatus = conf.status;
    this.emit('boot', conf);
    if (conf.status === 'Accepted') {
      if (conf.interval > 0) this.heartbeatSeconds = conf.interval;
      this.configuration.note('HeartbeatInterval', String(this.heartbeatSeconds));
      this.startTimers();
      await this.reportAll();
      await this.flush();
      this.emit('ready');
      return;
    }
    // Pending or Rejected: ask again after the interval given (the charge point picks one for 0) and send
    // nothing else meanwhile, as the specification requires of a rejected charge point.
    const retry = conf.interval > 0 ? conf.interval : (this.options.bootRetrySeconds ?? 30);
    this.log(`boot ${conf.status}, retry in ${retry} s`);
    this.bootTimer = setTimeout(() => {
      if (this.online) void this.boot().catch((error: unknown) => this.log(`boot: ${String(error)}`));
    }, retry * 1000);
    this.bootTimer.unref();
  }

  private startTimers(): void {
    this.stopTimers();
    if (this.options.timers === false) return;
    this.heartbeatTimer = setInterval(
      () => void this.heartbeat().catch(() => {}),
      this.heartbeatSeconds * 1000,
    );
    this.heartbeatTimer.unref();
    this.meterTimer = setInterval(
      () => void this.advance(this.meterSeconds * this.speed),
      this.meterSeconds * 1000,
    );
    this.meterTimer.unref();
  }

  private stopTimers(): void {
    clearInterval(this.heartbeatTimer);
    clearInterval(this.meterTimer);
    clearTimeout(this.bootTimer);
  }

  async heartbeat(): Promise<string> {
    const conf = (await this.call('Heartbeat', {})) as { currentTime: string };
    return conf.currentTime;
  }

  protected call(action: string, payload: Record<string, unknown>): Promise<unknown> {
    if (!this.client || !this.online) return Promise.reject(new Error(`${this.id} is offline`));
    return this.client.call(action, payload);
  }
}
