/**
 * What to do about a zone above its power budget (docs/garage.md "Zone power budget", "The algorithm"): pure, so
 * the sweep (budget.ts) and its unit test agree on the numbers.
 *
 * Every running session is entitled to an equal share of the budget, the "water level": a session that draws
 * less than the level (or whose host's MaxPowerW, split among that host's sessions, allows less) leaves the rest
 * to the others, who share it equally. A session whose charger takes a limit (SmartCharging) is limited to its
 * share. A session that cannot be limited (a charger without SmartCharging, or one that draws above the limit it
 * was sent) draws what it draws; while the zone would still be above its budget, the newest of those are
 * stopped first, each stop freeing its share for the others, until the zone is at or under its budget.
 */

export interface PlanSession {
  recordId: number;
  hostId: number;
  startAt: number;
  /** Its live power (W); null when no recent reading says (counted as 0: only what is known counts). */
  powerW: number | null;
  /** Its charger takes a limit now (SmartCharging, and it honours the one in force). */
  limitable: boolean;
  /** Its host's MaxPowerW, null when none. */
  hostMaxW: number | null;
}

export interface BudgetPlan {
  /** The limit (W) of each limitable session that stays, by session id. */
  limits: Map<number, number>;
  /** Sessions to stop, newest first. */
  stops: number[];
  /**
   * The equal share of the budget (W) each session is entitled to once the stops are made; null when every
   * session fits whole (each is held by its host's MaxPowerW alone).
   */
  shareW: number | null;
  /** The zone's draw once the limits hold and the stops are made, as far as it is known (W). */
  projectedW: number;
}

/**
 * The level L such that the demands, each taken up to L, add up to the budget (max-min fairness); Infinity
 * when every demand fits whole.
 */
export function waterLevel(budgetW: number, demands: readonly number[]): number {
  const sorted = [...demands].sort((a, b) => a - b);
  let remaining = budgetW;
  let left = sorted.length;
  for (const demand of sorted) {
    if (demand * left > remaining) return Math.max(0, remaining / left);
    remaining -= demand;
    left -= 1;
  }
  return Infinity;
}

/** Newest first: by start, then by id (a later session has a larger id). */
const newestFirst = (a: PlanSession, b: PlanSession) => b.startAt - a.startAt || b.recordId - a.recordId;

export function planBudget(budgetW: number, sessions: readonly PlanSession[]): BudgetPlan {
  const active = [...sessions];
  const stops: number[] = [];
  for (;;) {
    // What a limitable session may draw at most because of its host: the host's MaxPowerW split among its
    // sessions still running (a host is SmartCharging or not as a whole, so they all take limits).
    const perHost = new Map<number, number>();
    for (const s of active) perHost.set(s.hostId, (perHost.get(s.hostId) ?? 0) + 1);
    const cap = (s: PlanSession) =>
      s.hostMaxW === null ? Infinity : Math.floor(s.hostMaxW / perHost.get(s.hostId)!);
    const demand = (s: PlanSession) => (s.limitable ? cap(s) : (s.powerW ?? 0));
    const level = waterLevel(budgetW, active.map(demand));
    const limits = new Map<number, number>();
    let projectedW = 0;
    for (const s of active) {
      if (s.limitable) {
        const limit = Math.floor(Math.min(cap(s), level));
        limits.set(s.recordId, limit);
        projectedW += limit;
      } else projectedW += s.powerW ?? 0;
    }
    // Only a session known to draw can bring the draw down by stopping.
    const candidate = active.filter((s) => !s.limitable && (s.powerW ?? 0) > 0).sort(newestFirst)[0];
    if (projectedW <= budgetW || !candidate) {
      const shareW = Number.isFinite(level) ? Math.floor(level) : null;
      return { limits, stops, shareW, projectedW: Math.round(projectedW) };
    }
    stops.push(candidate.recordId);
    active.splice(active.indexOf(candidate), 1);
  }
}
