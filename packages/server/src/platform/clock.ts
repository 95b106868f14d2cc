/** Services read time through this, so tests can move it (session expiry, throttling). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  constructor(private time = Date.UTC(2026, 0, 1)) {}
  now() {
    return this.time;
  }
  advance(ms: number) {
    this.time += ms;
  }
}
