import { defineEnum } from './define.ts';

/**
 * Where a visitor pass stands (docs/access-control.md, "Visitor passes"): 1 valid (issued; its card is on the
 * chosen doors' controllers, or on its way), 2 expired (its end passed: the card was taken off), 3 revoked.
 * A valid pass whose start is still ahead is shown as such by its item's `Upcoming`.
 */
export const visitorPassState = defineEnum('visitorPassState', [
  { value: 1, color: '#2E7D32' },
  { value: 2, color: '#616161' },
  { value: 3, color: '#C62828' },
]);
