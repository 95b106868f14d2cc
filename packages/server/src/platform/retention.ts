import { isoInstant } from '@gatehouse/shared';
import type { SettingValues, Settings } from './settings.ts';

/**
 * The step loop every record kind's retention shares (issue 20, docs/performance.md "Growth bounded"): with a
 * setting of N > 0 months, a kind's records from before the start of the UTC day N calendar months ago are
 * removed; 0 (every setting's default) keeps everything.
 *
 * Removed per area, oldest first, in steps of a few thousand rows; each step is the kind's own short
 * transaction, which also keeps whatever rests on those rows right (day counts, the links between records).
 * Steps are spaced by a pause and a run stops starting steps after its time budget: lists and the devices' inserts go on between steps, and the next run goes on where this one stopped.
 */
export interface RetentionRun {
  /** Rows a step looks at (and removes at most): one transaction. */
  stepRows?: number;
  /** Pause between steps. */
  pauseMs?: number;
  /** A run stops starting steps after this long; the next run goes on. */
  budgetMs?: number;
  /** Called after every step (tests run lists and inserts there). */
  afterStep?: () => Promise<void>;
}

export interface RetentionResult {
  cutoff: number;
  removed: number;
  steps: number;
  /** Every expired record that may go is gone (false: the budget ran out first). */
  done: boolean;
}

/**
 * What one step did. A kind whose every expired row may go (swipes) only says whether its step was full;
 * a kind that keeps some expired rows (an open session, an unpaid order) walks past them with `after`, its
 * position in the area's time order, so that a run never reads the rows it keeps more than once.
 */
export interface RetentionStep<Cursor> {
  removed: number;
  /** The area may hold more expired rows after this step. */
  more: boolean;
  /** Where the area's next step starts (kinds that keep some expired rows). */
  after?: Cursor;
}

export type RetentionStepFn<Cursor> = (
  areaId: number,
  stepRows: number,
  after: Cursor | undefined,
) => Promise<RetentionStep<Cursor>>;

export const RETENTION_STEP_ROWS = 2_000;
export const RETENTION_BUDGET_MS = 60_000;

/** The first instant kept: the start (UTC) of the day `months` calendar months before `now`. */
export function retentionCutoff(now: number, months: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, d.getUTCDate());
}

/** The settings that bound a record kind's age (months; 0 keeps everything). */
export type RetentionSetting = Extract<keyof SettingValues, `${string}RetentionMonths`>;

/**
 * What a record list's page says about retention (`RetainedFrom` of the contract's Page): the cutoff of its
 * kind as an ISO instant when the kind's setting removes anything (N > 0 months) and the list's range starts
 * before the cutoff or has no start; otherwise nothing. Spread into the page: `{ ...page, ...retainedFrom(…) }`.
 * The cutoff is the step loop's own (retentionCutoff), so the list says exactly what the runs remove.
 */
export function retainedFrom(
  settings: Pick<Settings, 'get'>,
  setting: RetentionSetting,
  now: number,
  start: number | undefined,
): { RetainedFrom?: string } {
  const months = settings.get(setting);
  if (!(months > 0)) return {};
  const cutoff = retentionCutoff(now, months);
  return start === undefined || start < cutoff ? { RetainedFrom: isoInstant(cutoff) } : {};
}

/**
 * Runs a kind's steps over the areas that may hold expired records (`areas`, asked only when the setting
 * removes anything), area after area, until each is through or the run's budget is spent.
 */
export async function pruneInSteps<Cursor>(
  now: number,
  months: number,
  run: RetentionRun,
  areas: (cutoff: number) => Promise<readonly number[]>,
  step: (cutoff: number) => RetentionStepFn<Cursor>,
): Promise<RetentionResult> {
  const cutoff = retentionCutoff(now, months);
  const result: RetentionResult = { cutoff, removed: 0, steps: 0, done: true };
  if (!(months > 0)) return result;
  const stepRows = run.stepRows ?? RETENTION_STEP_ROWS;
  const budgetMs = run.budgetMs ?? RETENTION_BUDGET_MS;
  const stepOf = step(cutoff);
  // Wall time, not the application clock: the budget bounds how long this instance works, whatever the date.
  const started = Date.now();
  for (const areaId of await areas(cutoff)) {
    let after: Cursor | undefined;
    for (;;) {
      if (Date.now() - started > budgetMs) return { ...result, done: false };
      const done = await stepOf(areaId, stepRows, after);
      result.removed += done.removed;
      result.steps += 1;
      await run.afterStep?.();
      if (!done.more) break;
      after = done.after;
      if (run.pauseMs) await new Promise((resolve) => setTimeout(resolve, run.pauseMs));
    }
  }
  return result;
}
