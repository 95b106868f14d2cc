import { defineEnum } from './define.ts';

/**
 * What a door schedule does at its time (docs/access-control.md, "Door schedules"): 1 normally open,
 * 2 normally closed, 3 controlled (back to card access), 4 push button off, 5 push button on. Sent to the
 * controller as its task list (0xA8).
 */
export const doorScheduleAction = defineEnum('doorScheduleAction', [
  { value: 1, color: '#2E7D32' },
  { value: 2, color: '#C62828' },
  { value: 3, color: '#1565C0' },
  { value: 4, color: '#946200' },
  { value: 5, color: '#00695C' },
]);

/** Interlock (0xA2): doors of a group never open together. 0 off, 1 doors 1&2, 2 3&4, 3 both pairs, 4 1&2&3, 8 all. */
export const interlockMode = defineEnum('interlockMode', [
  { value: 0 },
  { value: 1 },
  { value: 2 },
  { value: 3 },
  { value: 4 },
  { value: 8 },
]);

/** Anti-passback (0x84): 0 off, 1 doors 1:2 and 3:4, 2 (1,3):(2,4), 3 1:(2,3), 4 1:(2,3,4). */
export const antiPassbackMode = defineEnum('antiPassbackMode', [
  { value: 0 },
  { value: 1 },
  { value: 2 },
  { value: 3 },
  { value: 4 },
]);

/** Why an alarm was raised: 1 door forced, 2 held open too long, 3 repeated refused swipes, 4 controller offline. */
export const doorAlarmKind = defineEnum('doorAlarmKind', [
  { value: 1, color: '#C62828' },
  { value: 2, color: '#946200' },
  { value: 3, color: '#AD1457' },
  { value: 4, color: '#455A64' },
]);

/** An alarm waits for an operator (0 open) until acknowledged with a note (1). */
export const doorAlarmState = defineEnum('doorAlarmState', [
  { value: 0, color: '#C62828' },
  { value: 1, color: '#2E7D32' },
]);

/**
 * A door as the live monitor shows it: 0 not known yet, 1 closed, 2 open, 3 unlocked, 4 held open, 5 forced,
 * 6 its controller offline.
 */
export const doorLiveState = defineEnum('doorLiveState', [
  { value: 0, color: '#8C8C8C' },
  { value: 1, color: '#2E7D32' },
  { value: 2, color: '#1565C0' },
  { value: 3, color: '#00838F' },
  { value: 4, color: '#946200' },
  { value: 5, color: '#C62828' },
  { value: 6, color: '#455A64' },
]);
