import { ChargePoint, type ChargePointOptions } from './charge-point.ts';
import type { Battery } from './battery.ts';
import type { ChargePointErrorCode, StopReason } from './ocpp.ts';

export interface SimulatorOptions extends Omit<ChargePointOptions, 'id' | 'password'> {
  /** Charge point ids (Gatehouse: host serial numbers), or a count for SIM-001, SIM-002, … */
  points: string[] | number;
  /** One password for all, or one per id. */
  password?: string | ((id: string) => string | undefined);
}

/**
 * N charge points × M connectors, controlled from code (tests, the demo, benchmarks) or through the CLI and
 * its HTTP API. Charge points are named by id; connectors count from 1.
 */
export class Simulator {
  readonly points = new Map<string, ChargePoint>();

  constructor(options: SimulatorOptions) {
    const { points, password: passwords, ...common } = options;
    const ids =
      typeof points === 'number'
        ? Array.from({ length: points }, (_, i) => `SIM-${String(i + 1).padStart(3, '0')}`)
        : points;
    for (const id of ids) {
      const password = typeof passwords === 'function' ? passwords(id) : passwords;
      this.points.set(
        id,
        new ChargePoint({ ...common, id, ...(password !== undefined ? { password } : {}) }),
      );
    }
  }

  point(id: string): ChargePoint {
    const found = this.points.get(id);
    if (!found) throw new RangeError(`no charge point ${id}`);
    return found;
  }

  /** Connects every charge point; resolves with the ids that could not connect and why. */
  async start(): Promise<{ id: string; error: string }[]> {
    const failures: { id: string; error: string }[] = [];
    await Promise.all(
      [...this.points.values()].map((cp) =>
        cp.goOnline().catch((error: unknown) => failures.push({ id: cp.id, error: String(error) })),
      ),
    );
    return failures;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.points.values()].map((cp) => cp.close()));
  }

  plugIn(cp: string, connector: number, battery?: Partial<Battery>) {
    return this.point(cp).plugIn(connector, battery);
  }
  swipe(cp: string, connector: number, idTag: string) {
    return this.point(cp).swipe(connector, idTag);
  }
  unplug(cp: string, connector: number) {
    return this.point(cp).unplug(connector);
  }
  stopCharging(cp: string, connector: number, reason?: StopReason) {
    return this.point(cp).stop(connector, reason);
  }
  fault(cp: string, connector: number, errorCode: ChargePointErrorCode, vendorErrorCode?: string) {
    return this.point(cp).fault(connector, errorCode, vendorErrorCode);
  }
  clearFault(cp: string, connector: number) {
    return this.point(cp).clearFault(connector);
  }
  goOffline(cp: string) {
    return this.point(cp).goOffline();
  }
  goOnline(cp: string) {
    return this.point(cp).goOnline();
  }
  setPower(cp: string, connector: number, watts: number) {
    this.point(cp).setPower(connector, watts);
  }
  /** The connector draws `watts` whatever its limit (null: it keeps to its limit again). */
  overdraw(cp: string, connector: number, watts: number | null) {
    this.point(cp).overdraw(connector, watts);
  }
  /** The charger's body (connector 0) or a connector's sensor reads `celsius` (null: normal again). */
  overheat(cp: string, celsius: number | null, connector = 0) {
    return this.point(cp).overheat(celsius, connector);
  }
  /** Advances simulated time on every charge point (tests; the timers do it otherwise). */
  async advance(seconds: number): Promise<void> {
    await Promise.all([...this.points.values()].map((cp) => cp.advance(seconds)));
  }

  /** A plain snapshot for the HTTP API and the CLI. */
  snapshot() {
    return [...this.points.values()].map((cp) => ({
      id: cp.id,
      online: cp.online,
      boot: cp.bootStatus,
      queued: cp.queued,
      bodyTemperatureC: cp.bodyTemperatureC ?? null,
      connectors: cp.connectors.map((c) => ({
        id: c.id,
        status: c.status,
        errorCode: c.errorCode,
        vendorErrorCode: c.vendorErrorCode ?? null,
        plugged: c.plugged,
        powerW: Math.round(c.powerW),
        registerWh: Math.round(c.registerWh),
        soc: c.battery ? Math.round(c.battery.soc * 100) : null,
        transactionId: c.transaction?.id ?? null,
        idTag: c.transaction?.idTag ?? null,
        limitW:
          c.transaction?.id !== undefined ? (cp.profiles.limitW(c.id, c.transaction.id, 0) ?? null) : null,
        overdrawW: c.overdrawW ?? null,
        temperatureC: c.temperatureC ?? null,
      })),
    }));
  }
}
