import { z } from 'zod';
import { parseLocalMinute } from '../../access-check-rules.ts';
import { canonicalCardNumber } from '../../access-control-rules.ts';
import { cardNumberItem } from '../../validators/rules.ts';
import { zodRule } from '../../validators/adapters.ts';
import { operation } from '../operation.ts';
import { ACCESS_CONTROL_ANY } from '../permissions.ts';
import { idText, pageOf, paging } from '../wire.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';

/**
 * The access check (docs/access-control.md, "Access check"): "why was I refused?" answered step by step, on
 * Gatehouse's side (card, holder, authorisation, validity, time profile with holidays, lockdown, schedules, door
 * mode, interlock, anti-passback) and on the controller's, read live through the instance that drives it (does it
 * hold the card, with which door value and time profile, is its clock right, the last refusal it reported). Where
 * the two disagree it says so, and "sync now" (AccessControlDevice/SyncNow) brings the controller in line. The
 * reverse question, who can pass a door at a time, is a list of its own, exported like any list.
 */

/** Each step's verdict: it lets the card through, refuses it, lets it through with a caveat, or cannot tell. */
export const ACCESS_VERDICTS = ['pass', 'refuse', 'warn', 'unknown'] as const;
export type AccessVerdict = (typeof ACCESS_VERDICTS)[number];

/** Gatehouse's steps, in the order a controller takes its decision. */
export const ACCESS_CHECK_STEPS = [
  'card',
  'holder',
  'authorisation',
  'validity',
  'timeProfile',
  'lockdown',
  'schedule',
  'doorMode',
  'interlock',
  'antiPassback',
] as const;
export type AccessCheckStepName = (typeof ACCESS_CHECK_STEPS)[number];

/** The controller's steps: reached, its card, the card's dates, door value, time profile, door, clock, refusal. */
export const CONTROLLER_CHECK_STEPS = [
  'reach',
  'card',
  'dates',
  'doorValue',
  'profile',
  'doorMode',
  'clock',
  'lastRefusal',
] as const;
export type ControllerCheckStepName = (typeof CONTROLLER_CHECK_STEPS)[number];

/**
 * How the controller's side was read: `read` (it answered just now), else why not, truthfully: `offline` (it did
 * not answer and was already silent), `timeout` (no answer), `refused`, `notDriven` (several instances: none drives
 * it at this moment, a takeover within a lease term), `noAddress`, `gatewayOff` (no gateway runs here), `notWg`
 * (a third-party gate Gatehouse does not drive), `disabled` (the device is disabled: nobody drives it), `noDoor`
 * (the channel names no door of the controller).
 */
export const CONTROLLER_READ_STATES = [
  'read',
  'offline',
  'timeout',
  'refused',
  'notDriven',
  'noAddress',
  'gatewayOff',
  'notWg',
  'disabled',
  'noDoor',
] as const;
export type ControllerReadState = (typeof CONTROLLER_READ_STATES)[number];

/** A fact behind a step: text, number, flag or nothing. */
const fact = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One step of the decision: its verdict, what was found (a stable code and the operator's words), the data. */
export const accessCheckStep = z.object({
  Step: z.string(),
  Verdict: z.enum(ACCESS_VERDICTS),
  /** What was found, as a stable code (the catalogue key `accessCheck.finding.<Finding>`). */
  Finding: z.string(),
  /** The same in the operator's words (the request's language). */
  Text: z.string(),
  /** The data behind it (ids, names, dates, codes). */
  Data: z.record(z.string(), fact),
});
export type AccessCheckStep = z.output<typeof accessCheckStep>;

/** One side's decision: the verdict of its steps (the first refusal, else a caveat, else an unknown, else pass). */
const side = {
  Verdict: z.enum(ACCESS_VERDICTS),
  /** The decision in one sentence, in the operator's words. */
  Text: z.string(),
  Steps: z.array(accessCheckStep),
};

/** Where the controller holds something other than what Gatehouse says it must, in the operator's words. */
export const accessCheckDisagreement = z.object({
  Finding: z.string(),
  Text: z.string(),
  /** "Sync now" (the device sync's compare-then-correct pass) puts it right. */
  SyncFixes: z.boolean(),
});

export const accessCheckResult = z.object({
  /** The printed 10-digit number, and the controller's form of it. */
  CardNumber: z.string(),
  CardValue: z.number(),
  CardUserId: z.number().nullable(),
  HolderName: z.string().nullable(),
  ChannelId: z.number(),
  ChannelName: z.string(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  SerialNumber: z.string(),
  DoorNumber: z.number(),
  Direction: z.number(),
  /** The instant checked, and the same as the area's wall clock (`YYYY-MM-DD HH:mm`) in its zone. */
  At: z.string(),
  AtLocal: z.string(),
  TimeZone: z.string(),
  /** Whether At is now (the controller's live door mode and clock speak of now only). */
  Now: z.boolean(),
  Server: z.object(side),
  Controller: z.object({
    ...side,
    State: z.enum(CONTROLLER_READ_STATES),
    /** When it answered (null: it was not read). */
    ReadAt: z.string().nullable(),
  }),
  Disagreements: z.array(accessCheckDisagreement),
  /** A disagreement "sync now" puts right: the screen offers it (AccessControl/Admin). */
  SyncNow: z.boolean(),
});
export type AccessCheckResult = z.output<typeof accessCheckResult>;

/** A card number as typed or read from a swipe (1 to 10 digits), in its stored 10-digit form. */
const cardNumberText = z
  .string()
  .trim()
  .superRefine(zodRule(cardNumberItem))
  // Ten digits above 2^32 - 1 are no card a controller can hold (one message, not two, for a malformed one).
  .refine((text) => !/^\d{1,10}$/.test(text) || canonicalCardNumber(text) !== null, {
    message: 'validation.cardNumber',
  })
  .transform((text) => canonicalCardNumber(text) ?? text);

/** A minute of the area's wall clock, `YYYY-MM-DD HH:mm` (or with a `T`); absent: now. */
export const localMinuteQuery = z
  .string()
  .trim()
  .refine((text) => parseLocalMinute(text) !== null, { message: 'validation.localMinute' });

/** The who-can-pass list's filters (also what its export takes). */
const whoFilters = {
  /** One door (its reader; the controller opens the door, both readers, to a card granted on either). */
  ChannelId: idText.optional(),
  DeviceId: idText.optional(),
  /** Holder name or card number. */
  Keyword: z.string().trim().min(1).max(50).optional(),
  At: localMinuteQuery.optional(),
};
const whoFilterQuery = z.object(whoFilters);

/** Someone who can pass a door at the time asked: an authorisation whose every step lets its holder through. */
export const accessCheckWhoItem = z.object({
  /** The authorisation. */
  Id: z.number(),
  CardUserId: z.number(),
  HolderName: z.string(),
  /** The holder row of a visitor pass. */
  Visitor: z.boolean(),
  CardNumbers: z.string(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  ChannelId: z.number(),
  ChannelName: z.string(),
  DoorNumber: z.number(),
  IssueStatus: z.number(),
  ValidFrom: z.string(),
  ValidTo: z.string(),
  TimeProfileId: z.number().nullable(),
  /** Null: at any time. */
  TimeProfileName: z.string().nullable(),
});
export type AccessCheckWhoItem = z.output<typeof accessCheckWhoItem>;

const common = { tag: ACCESS_CONTROL_TAG, access: ACCESS_CONTROL_ANY, area: true } as const;

export const AccessCheckApi = {
  check: operation({
    ...common,
    method: 'GET',
    path: '/api/AccessCheck',
    summary:
      "Why a card is let in or refused at a door at a time (At: the area's wall clock to the minute, default now): each step on Gatehouse's side and on the controller's, read live, and where they disagree",
    query: z.strictObject({
      CardNumber: cardNumberText,
      ChannelId: idText,
      At: localMinuteQuery.optional(),
    }),
    reply: accessCheckResult,
  }),
};

/** Who can pass: a list of its own (its own service), exported like any list (`Resource: 'AccessCheckWho'`). */
export const AccessCheckWhoApi = {
  name: 'AccessCheckWho' as const,
  filterQuery: whoFilterQuery,
  list: operation({
    ...common,
    method: 'GET',
    path: '/api/AccessCheck/Who',
    summary:
      "Who can pass a door (or any door of the area) at a time (At: the area's wall clock, default now): every authorisation whose holder, validity and time profile let them through, the door not held closed",
    query: z.object({ ...paging, ...whoFilters }),
    reply: pageOf(accessCheckWhoItem),
  }),
};
