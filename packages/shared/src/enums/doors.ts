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

/**
 * A WG controller's own reason code for a record (docs/devices.md, "Record"), kept with every record read
 * from a controller (DoorOpeningRecord.EventReason) so door events and alarms (button, door held open,
 * forced, remote open, power-on) show what happened. Codes outside this list are shown as numbers.
 */
export const doorEventReason = defineEnum('doorEventReason', [
  { value: 1 },
  { value: 5 },
  { value: 6 },
  { value: 7 },
  { value: 8 },
  { value: 9 },
  { value: 10 },
  { value: 11 },
  { value: 12 },
  { value: 13 },
  { value: 15 },
  { value: 18 },
  { value: 20 },
  { value: 23 },
  { value: 24 },
  { value: 25 },
  { value: 28 },
  { value: 29 },
  { value: 31 },
  { value: 32 },
  { value: 33 },
  { value: 34 },
  { value: 37 },
  { value: 38 },
  { value: 39 },
  { value: 40 },
  { value: 41 },
  { value: 42 },
  { value: 43 },
  { value: 44 },
  { value: 45 },
]);
