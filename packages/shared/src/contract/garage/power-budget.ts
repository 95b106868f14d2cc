import { z } from 'zod';

/**
 * A zone's power budget (issue 30; docs/garage.md "Zone power budget"): what the zone's feeder may carry, the
 * live draw of its sockets against it, and what one host may draw. Watts, whole numbers.
 */

/** Bounds of a zone's PowerBudgetW: from one e-bike charger to a large site's feeder. */
export const POWER_BUDGET_MIN_W = 100;
export const POWER_BUDGET_MAX_W = 1_000_000;
/** Bounds of a host's MaxPowerW (e-bike charging hosts carry about 6 kW). */
export const HOST_MAX_POWER_MIN_W = 50;
export const HOST_MAX_POWER_MAX_W = 100_000;

/**
 * How long a socket's metered power stays its live draw (ms): three of the 30-second sample intervals Gatehouse
 * asks every charger for (docs/chargers.md, "Configured by Gatehouse"), as three missed heartbeats make a
 * charger offline. A reading older than this, or of a host not connected now, says nothing about now.
 */
export const POWER_READING_FRESH_MS = 90_000;

/** `PowerBudgetW` of a zone body: null removes the budget; absent on update keeps it. */
export const powerBudgetField = z
  .number()
  .int()
  .min(POWER_BUDGET_MIN_W)
  .max(POWER_BUDGET_MAX_W)
  .nullable()
  .optional();

/** `MaxPowerW` of a host body: null removes the limit; absent on update keeps it. */
export const hostMaxPowerField = z
  .number()
  .int()
  .min(HOST_MAX_POWER_MIN_W)
  .max(HOST_MAX_POWER_MAX_W)
  .nullable()
  .optional();

/**
 * Where a zone stands against its budget: `none` it has none; `under`; `atBudget` its draw reached the budget
 * (new starts are refused); `over` above it (past BudgetGraceSeconds Gatehouse limits or stops sessions).
 */
export const ZONE_POWER_STATES = ['none', 'under', 'atBudget', 'over'] as const;
export type ZonePowerState = (typeof ZONE_POWER_STATES)[number];

/** A zone's live draw against its budget, as the zone list, the socket grid and the dashboard show it. */
export const zonePower = z.object({
  /** The zone's budget (W); null: none. */
  BudgetW: z.number().nullable(),
  /** The sum of the live readings of its sockets' Power.Active.Import (W): only what is known now. */
  DrawW: z.number(),
  /** Sockets whose reading counts: their host is connected and it is at most POWER_READING_FRESH_MS old. */
  MeteredSockets: z.number(),
  /**
   * Running sessions whose draw is not known now (no reading that recent, or the host not connected): they are
   * not in DrawW, and the screens say so rather than guess.
   */
  UnknownSessions: z.number(),
  State: z.enum(ZONE_POWER_STATES),
  /** Since when the budget sweep has seen the zone above its budget (BudgetGraceSeconds counts from there). */
  OverSince: z.string().nullable(),
  /** Running sessions under a limit Gatehouse sent their charger (SetChargingProfile). */
  LimitedSessions: z.number(),
});
export type ZonePower = z.output<typeof zonePower>;

/** The state of a draw against a budget (the one rule the server and the screens apply). */
export function zonePowerState(drawW: number, budgetW: number | null): ZonePowerState {
  if (budgetW === null) return 'none';
  if (drawW > budgetW) return 'over';
  return drawW >= budgetW ? 'atBudget' : 'under';
}
