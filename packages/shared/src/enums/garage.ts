import { defineEnum } from './define.ts';

/** What a garage order pays for: 0 temporary parking, 1 monthly parking, 2 monthly with charging, 3 temporary charging. */
export const chargeType = defineEnum('chargeType', [{ value: 0 }, { value: 1 }, { value: 2 }, { value: 3 }]);

/**
 * How temporary charging is billed. The spec gives two readings; the second overrides the first:
 * 0 not configured, 1 timed (per hour), 2 metered (per kWh), 3 per use (per time).
 * `unit` is the catalogue key of the billing unit.
 */
export const temporaryChargeType = defineEnum('temporaryChargeType', [
  { value: 0 },
  { value: 1, unit: 'unit.hour' },
  { value: 2, unit: 'unit.kWh' },
  { value: 3, unit: 'unit.times' },
]);

/** Duration unit of monthly plans and extensions: 0 hour, 1 day, 2 month, 3 year. */
export const timeUnit = defineEnum('timeUnit', [{ value: 0 }, { value: 1 }, { value: 2 }, { value: 3 }]);

/** How a charging host is driven: 0 none, 1 user login to a charging system, 2 a charging API, 3 other. */
export const chargingSystemType = defineEnum('chargingSystemType', [
  { value: 0 },
  { value: 1 },
  { value: 2 },
  { value: 3 },
]);

/**
 * State of one charging port, with its display colour. Every colour reaches at least 4.5:1 against white,
 * so it works as text on white and as a tag background under white text; faults share the red family.
 * docs/domain-rules.md lists the ratios. Screens always show the label next to the colour.
 */
export const chargePortState = defineEnum('chargePortState', [
  { value: 0, color: '#2E7D32' }, // idle: green
  { value: 1, color: '#1565C0' }, // charging: blue
  { value: 2, color: '#946200' }, // occupied, not charging: amber
  { value: 3, color: '#00695C' }, // occupied, fully charged: teal
  { value: 4, color: '#C62828' }, // port fault: red
  { value: 5, color: '#3949AB' }, // float charge: indigo
  { value: 6, color: '#AD1457' }, // memory damaged: crimson
  { value: 7, color: '#BF360C' }, // safety door stuck: red-orange
  { value: 8, color: '#880E4F' }, // contact or fuse fault: wine
  { value: 9, color: '#7B1F1F' }, // relay stuck: maroon
  { value: 10, color: '#6D4C41' }, // door sensor chip damaged: brown
  { value: 11, color: '#6A1B9A' }, // bound port: purple
  { value: 12, color: '#616161' }, // disabled: grey
  { value: 170, color: '#007A87' }, // waiting for card swipe: cyan
  // Not stored: what the API shows for a socket whose charge point is offline or never connected (its last
  // report is stale). Blue grey, apart from disabled's grey.
  { value: 255, color: '#546E7A' }, // unknown / offline
]);

/**
 * Payment of an order (the WeChat Pay trade and refund states): 0 unpaid, 1 closed, 2 paid, 3 moved to refund,
 * 4 payment failed, 5 user paying, 6 cancelled, 7 refund succeeded, 8 refund cancelled, 9 refunding,
 * 10 refund exception.
 */
export const paymentState = defineEnum('paymentState', [
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
]);

/**
 * Why a charging session ended: 0 fully charged, 1 stopped by the user (unplugged or stopped in the app),
 * 2 paid time or amount used up, 3 forced power-off by an operator, 4 device fault, 5 power failure,
 * 6 ended, not confirmed by the charger, 7 ended by the charger (it restarted without the session),
 * 8 over temperature (the host's heat alarm), 9 the zone's power budget, 10 the zone's emergency stop.
 */
export const chargeStopReason = defineEnum('chargeStopReason', [
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
]);

/** The chargeStopReason values by name, for code that sets or tests one (never a bare number). */
export const STOP_REASON = {
  fullyCharged: 0,
  byUser: 1,
  usedUp: 2,
  forcedPowerOff: 3,
  deviceFault: 4,
  powerFailure: 5,
  /** The connected charger reported the socket free and never sent the session's stop (docs/chargers.md). */
  unconfirmed: 6,
  /**
   * The charger restarted and reported the socket without the session (Available, Preparing, Finishing): it
   * ended the session itself, at the time it gave (docs/chargers.md, "Reconciliation").
   */
  byCharger: 7,
  /** Stopped by Gatehouse: the host's temperature passed its zone's limit (docs/garage.md "Safety"). */
  overTemperature: 8,
  /** Stopped by Gatehouse: the zone drew more than its power budget for longer than the grace. */
  zoneBudget: 9,
  /** Stopped by Gatehouse: the zone's emergency stop. */
  emergencyStop: 10,
} as const;

/**
 * What became of a forced power-off command: 0 recorded but not sent (no device link, not connected), 1 the
 * charger cut the power (for a session: its stop report ended it), 2 the charger refused or did not answer,
 * 3 sent and accepted, not confirmed yet (the session runs until the charger's stop report).
 */
export const forcedOutageResult = defineEnum('forcedOutageResult', [
  { value: 0 },
  { value: 1 },
  { value: 2 },
  { value: 3 },
]);

/** The forcedOutageResult values by name. */
export const POWER_OFF_RESULT = { notSent: 0, cut: 1, failed: 2, sent: 3 } as const;
