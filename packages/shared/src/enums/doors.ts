import { defineEnum } from './define.ts';

/**
 * Which way a channel (a reader on a door) lets people pass: 0 unspecified, 1 in, 2 out. Two-way
 * controllers have an in and an out reader per door; the controller reports the direction of each swipe.
 */
export const doorDirection = defineEnum('doorDirection', [{ value: 0 }, { value: 1 }, { value: 2 }]);

/**
 * Why a door opened or stayed shut, as recorded with each swipe: 0 other, 1 authorised card, 2 card not
 * registered, 3 card registered but not given to a holder, 4 no authorisation for this door, 5 outside the
 * holder's or the authorisation's validity, 6 holder disabled (2-6 explained from what Gatehouse holds).
 * 7-15 are the controller's own refusals, stored as it reports them (WG reason byte, uhppote-core
 * messages/get_event.go "Reason" table): 7 outside the card's time profile (WG 15 "Invalid Timezone"),
 * 8 anti-passback (WG 8 "AntiBack"), 9 interlock (WG 12 "InterLock"), 10 wrong PIN (WG 7 "Wrong PASSWORD"),
 * 11 door set normally closed (WG 11 "Door Set NC"), 12 more cards needed (WG 9), 13 first card not yet
 * swiped (WG 10 "First Card Open"), 14 limited times used up (WG 13), 15 door under PC control (WG 5).
 * 16: the controller refused a card Gatehouse holds as authorised and valid, for no cause it names.
 */
export const doorRecordReason = defineEnum('doorRecordReason', [
  { value: 0 },
  { value: 1 },
  { value: 2 },
  { value: 3 },
  { value: 4 },
  { value: 5 },
  { value: 6 },
  { value: 7 },
  { value: 8 },
  { value: 9 },
  { value: 10 },
  { value: 11 },
  { value: 12 },
  { value: 13 },
  { value: 14 },
  { value: 15 },
  { value: 16 },
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
