import { describe, expect, it } from 'vitest';
import {
  COLLECTED_STATES,
  FINAL_STATES,
  LANGUAGES,
  PAYMENT_ACTIONS,
  PAYMENT_ACTION_NAMES,
  PAYMENT_TRANSITIONS,
  actionTarget,
  availableActions,
  canTransition,
  hasKey,
  isCollected,
  paymentState,
  type PaymentActor,
} from '../src/index.ts';

const STATES = paymentState.items.map((i) => i.value);
const ACTORS: PaymentActor[] = ['operator', 'channel', 'system'];

describe('payment-state transitions', () => {
  it('uses only states of the enumeration', () => {
    for (const t of PAYMENT_TRANSITIONS) {
      expect(STATES).toContain(t.from);
      expect(STATES).toContain(t.to);
    }
  });

  it('allows exactly the table, for exactly its actor', () => {
    for (const from of STATES)
      for (const to of STATES)
        for (const actor of ACTORS) {
          const listed = PAYMENT_TRANSITIONS.some((t) => t.from === from && t.to === to && t.actor === actor);
          expect(canTransition(from, to, actor), `${from} → ${to} by ${actor}`).toBe(listed);
        }
  });

  it.each([
    [0, 2, 'unpaid cannot become paid without paying'],
    [2, 0, 'paid cannot become unpaid'],
    [1, 0, 'closed is final'],
    [7, 2, 'refund succeeded is final'],
    [6, 0, 'cancelled is final'],
    [2, 7, 'no refund without moving to refund and refunding'],
    [3, 7, 'no refund success before the channel took it'],
    [9, 8, 'a refund the channel is processing cannot be cancelled'],
  ])('refuses %i → %i (%s) for every actor', (from, to) => {
    for (const actor of ACTORS) expect(canTransition(from, to, actor)).toBe(false);
  });

  it('leaves final states by no transition, and reaches every state from unpaid', () => {
    for (const s of FINAL_STATES) expect(PAYMENT_TRANSITIONS.some((t) => t.from === s)).toBe(false);
    const reached = new Set<number>([0]);
    for (let grew = true; grew;) {
      grew = false;
      for (const t of PAYMENT_TRANSITIONS)
        if (reached.has(t.from) && !reached.has(t.to)) {
          reached.add(t.to);
          grew = true;
        }
    }
    expect([...reached].sort((a, b) => a - b)).toEqual(STATES);
  });

  it('gives every operator transition an action and no other transition one', () => {
    for (const t of PAYMENT_TRANSITIONS) expect(t.action !== undefined).toBe(t.actor === 'operator');
  });

  it.each([
    ['Close', 0, 1],
    ['Close', 4, 1],
    ['Close', 2, null],
    ['Refund', 2, 3],
    ['Refund', 8, 3],
    ['Refund', 0, null],
    ['Refund', 7, null],
    ['CancelRefund', 3, 8],
    ['CancelRefund', 10, 8],
    ['CancelRefund', 9, null],
    ['RetryRefund', 10, 9],
    ['RetryRefund', 3, null],
  ] as const)('%s from %i leads to %s', (action, from, to) => {
    expect(actionTarget(action, from)).toBe(to);
  });

  it('offers each level only its actions, per state', () => {
    const offered = (level: 'user' | 'admin') =>
      Object.fromEntries(STATES.map((s) => [s, availableActions(s, level)]));
    expect(offered('admin')).toEqual({
      0: ['Close'],
      1: [],
      2: ['Refund'],
      3: ['CancelRefund'],
      4: ['Close'],
      5: [],
      6: [],
      7: [],
      8: ['Refund'],
      9: [],
      10: ['CancelRefund', 'RetryRefund'],
    });
    expect(offered('user')).toEqual({ ...offered('admin'), 2: [], 3: [], 8: [], 10: [] });
  });

  it('requires a reason to refund and labels every action in every language', () => {
    expect(PAYMENT_ACTIONS.Refund).toEqual({ level: 'admin', reason: 'required' });
    expect(PAYMENT_ACTIONS.Close.level).toBe('user');
    for (const action of PAYMENT_ACTION_NAMES)
      for (const lang of LANGUAGES) expect(hasKey(lang, `garage.action.${action}`)).toBe(true);
  });

  it('counts money as collected while it is with the operator', () => {
    expect(COLLECTED_STATES).toEqual([2, 3, 8, 9, 10]);
    expect(STATES.filter(isCollected)).toEqual([2, 3, 8, 9, 10]);
  });
});
