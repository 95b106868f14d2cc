// Authorisation sync, compare-then-correct (docs/devices.md, "Sync"). The issue statuses are the queue: a
// device with authorisations pending (1, 2, -1) is synced as a whole: read what the controller holds, write
// the differences, read each written card back, then confirm in the database (3 / -2, with an audit entry by
// the device). Because it compares against the controller's actual list, a controller that was cleared (0x54)
// or replaced is rebuilt by the same pass.

import { controllerDate } from '@gatehouse/shared';
import {
  confirmSync,
  failSync,
  markSending,
  syncPlan,
  type ControllerRef,
  type DesiredCard,
  type SyncPlan,
} from '../../modules/access-control/index.ts';
import type { ServiceContext } from '../../platform/context.ts';
import type { LocalDate } from './codec.ts';
import { WgError, type CardRecord, type WgDevice, type WgDriver } from './driver.ts';

export type SyncPhase = 'read' | 'write' | 'done';

export interface SyncOutcome {
  ok: boolean;
  error: 'offline' | 'refused' | 'timeout' | null;
  /** cards the controller holds after the pass, as Gatehouse wants them */
  expectedCards: number;
  put: number;
  deleted: number;
  issued: number;
  confirmedDeleted: number;
}

export interface SyncOptions {
  backoff: { baseMs: number; maxMs: number };
  onProgress?: (phase: SyncPhase, done: number, total: number) => void;
  /**
   * Brings the controller's access rules in line first (rules-sync.ts): a card names its time profile by slot,
   * and a controller lets a card whose profile it lacks in at any time. Its failure fails the pass before a
   * card is written.
   */
  rulesFirst?: () => Promise<'offline' | 'refused' | 'timeout' | null>;
}

/** The local date a validity bound is written as: the shared rule the access check compares with (controllerDate). */
function localDate(ms: number, zone: string): LocalDate {
  const [year, month, day] = controllerDate(ms, zone).split('-').map(Number) as [number, number, number];
  return { year, month, day };
}

/** The card record the controller must hold for a desired card. */
export function cardRecordOf(card: DesiredCard, zone: string): CardRecord {
  // The door values: 1 at any time, 2..254 the time profile's controller profile (docs/devices.md, "Access rules").
  const doors: [number, number, number, number] = [...card.doorValues];
  return {
    card: card.cardValue,
    from: localDate(card.from, zone),
    to: localDate(card.to, zone),
    doors,
    pin: 0,
  };
}

const sameDate = (a: LocalDate | null, b: LocalDate | null) =>
  a === b || (!!a && !!b && a.year === b.year && a.month === b.month && a.day === b.day);

export function sameCard(a: CardRecord, b: CardRecord): boolean {
  return (
    a.card === b.card &&
    sameDate(a.from, b.from) &&
    sameDate(a.to, b.to) &&
    a.doors.every((d, i) => d === b.doors[i]) &&
    a.pin === b.pin
  );
}

type SyncFailure = 'offline' | 'refused' | 'timeout';

function failureOf(error: unknown): SyncFailure {
  if (error instanceof WgError) {
    if (error.code === 'offline' || error.code === 'closed') return 'offline';
    if (error.code === 'refused') return 'refused';
  }
  return 'timeout';
}

/**
 * Writes one card and reads it back: a card the controller refuses or holds otherwise stays wrong and the
 * pass goes on; any other failure (the controller stopped answering) is thrown to end the writes.
 */
async function putVerified(
  driver: WgDriver,
  wg: WgDevice,
  card: CardRecord,
  wrong: Set<number>,
  outcome: SyncOutcome,
): Promise<void> {
  try {
    await driver.putCard(wg, card);
    const back = await driver.getCard(wg, card.card);
    if (back && sameCard(back, card)) {
      wrong.delete(card.card);
      outcome.put++;
    } else outcome.error ??= 'refused';
  } catch (error) {
    if (failureOf(error) !== 'refused') throw error;
    outcome.error ??= 'refused';
  }
}

/** Deletes one card and reads it back, failing as putVerified does. */
async function deleteVerified(
  driver: WgDriver,
  wg: WgDevice,
  card: number,
  wrong: Set<number>,
  outcome: SyncOutcome,
): Promise<void> {
  try {
    await driver.deleteCard(wg, card);
    if ((await driver.getCard(wg, card)) === null) {
      wrong.delete(card);
      outcome.deleted++;
    } else outcome.error ??= 'refused';
  } catch (error) {
    if (failureOf(error) !== 'refused') throw error;
    outcome.error ??= 'refused';
  }
}

/**
 * Writes the differences between what the controller holds and what Gatehouse wants. Returns the cards whose
 * state on the controller is not known to be right after the writes, and how many writes there were.
 */
async function writeDifferences(
  driver: WgDriver,
  wg: WgDevice,
  desired: Map<number, CardRecord>,
  held: CardRecord[],
  outcome: SyncOutcome,
  onProgress: SyncOptions['onProgress'],
): Promise<{ wrong: Set<number>; total: number }> {
  const heldByCard = new Map(held.map((c) => [c.card, c]));
  const puts = [...desired.values()].filter((c) => {
    const h = heldByCard.get(c.card);
    return !h || !sameCard(h, c);
  });
  const deletes = held.filter((c) => !desired.has(c.card)).map((c) => c.card);
  const total = puts.length + deletes.length;
  let done = 0;
  const wrong = new Set<number>([...puts.map((p) => p.card), ...deletes]);
  onProgress?.('write', 0, total);
  try {
    for (const card of puts) {
      await putVerified(driver, wg, card, wrong, outcome);
      onProgress?.('write', ++done, total);
    }
    for (const card of deletes) {
      await deleteVerified(driver, wg, card, wrong, outcome);
      onProgress?.('write', ++done, total);
    }
  } catch (error) {
    // The controller stopped answering: everything not yet confirmed stays wrong.
    outcome.error = failureOf(error);
  }
  return { wrong, total };
}

/** Confirms the authorisations whose holder's cards are all right on the controller and fails the others. */
async function confirmOrFail(
  ctx: ServiceContext,
  plan: SyncPlan,
  wrong: Set<number>,
  outcome: SyncOutcome,
  backoff: SyncOptions['backoff'],
): Promise<void> {
  const isGood = (r: { CardUserId: number }) =>
    (plan.holderCards.get(r.CardUserId) ?? []).every((c) => !wrong.has(c));
  const good = plan.rows.filter(isGood);
  const bad = plan.rows.filter((r) => !isGood(r));
  const confirmed = await confirmSync(ctx, good);
  outcome.issued = confirmed.issued;
  outcome.confirmedDeleted = confirmed.deleted;
  if (bad.length) await failSync(ctx, bad, outcome.error ?? 'refused', backoff);
}

/** One compare-then-correct pass over a controller. Never throws for controller failures. */
export async function syncController(
  driver: WgDriver,
  ctx: ServiceContext,
  device: ControllerRef,
  wg: WgDevice,
  options: SyncOptions,
): Promise<SyncOutcome> {
  const rulesError = options.rulesFirst ? await options.rulesFirst() : null;
  await markSending(ctx, device.Id);
  const plan = await syncPlan(ctx, device.Id);
  const desired = new Map<number, CardRecord>();
  for (const [value, card] of plan.cards) desired.set(value, cardRecordOf(card, device.TimeZone));
  const outcome: SyncOutcome = {
    ok: false,
    error: null,
    expectedCards: desired.size,
    put: 0,
    deleted: 0,
    issued: 0,
    confirmedDeleted: 0,
  };
  const fail = async (error: SyncFailure) => {
    outcome.error = error;
    await failSync(ctx, plan.rows, error, options.backoff);
    return outcome;
  };
  if (rulesError) return fail(rulesError);
  let held: CardRecord[];
  try {
    options.onProgress?.('read', 0, 0);
    held = await driver.listCards(wg, {
      onProgress: (found, total) => options.onProgress?.('read', found, total),
    });
  } catch (error) {
    return fail(failureOf(error));
  }
  const { wrong, total } = await writeDifferences(driver, wg, desired, held, outcome, options.onProgress);
  await confirmOrFail(ctx, plan, wrong, outcome, options.backoff);
  outcome.ok = wrong.size === 0;
  if (outcome.ok) outcome.error = null;
  options.onProgress?.('done', total, total);
  return outcome;
}
