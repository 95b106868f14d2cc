import { defineEnum } from './define.ts';

/**
 * Which way a channel (a reader on a door) lets people pass: 0 unspecified, 1 in, 2 out. Two-way
 * controllers have an in and an out reader per door; the controller reports the direction of each swipe.
 */
export const doorDirection = defineEnum('doorDirection', [{ value: 0 }, { value: 1 }, { value: 2 }]);

/**
 * Why a door opened or stayed shut, as recorded with each swipe: 0 other, 1 authorised card, 2 card not
 * registered, 3 card registered but not given to a holder, 4 no authorisation for this door, 5 outside the
 * holder's or the authorisation's validity, 6 holder disabled.
 */
export const doorRecordReason = defineEnum('doorRecordReason', [
  { value: 0 },
  { value: 1 },
  { value: 2 },
  { value: 3 },
  { value: 4 },
  { value: 5 },
  { value: 6 },
]);

/** A fault report moves forward only: 0 open, 1 in progress, 2 resolved. */
export const faultReportStatus = defineEnum('faultReportStatus', [
  { value: 0, color: '#C62828' },
  { value: 1, color: '#946200' },
  { value: 2, color: '#2E7D32' },
]);
