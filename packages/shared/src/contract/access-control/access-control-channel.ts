import { z } from 'zod';
import { PASSCODES_PER_DOOR, PASSCODE_MAX } from '../../access-rules.ts';

/** Every way a passcode can be wrong says the same thing to the operator (a value, not a type or a bound). */
const PASSCODE = { error: 'validation.passcode' } as const;
import { cardReaderType, doorNumber } from '../../enums/access-control.ts';
import { doorDirection } from '../../enums/doors.ts';
import { operation, resourceApi } from '../operation.ts';
import { ACCESS_CONTROL_ADMIN, ACCESS_CONTROL_ANY } from '../permissions.ts';
import { enumNumber, filterSchema, id, optionalText } from '../wire.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';

/**
 * Channel management (AccessControl/Admin): the readers on the doors of the area's controllers. The door
 * number must exist on the device's model (0 = unspecified); a door and direction belong to one channel.
 */
export const accessControlChannelItem = z.object({
  Id: z.number(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  SerialNumber: z.string(),
  DeviceType: z.number(),
  DoorNumber: z.number(),
  Name: z.string(),
  Direction: z.number(),
  ReaderType: z.number(),
  Remark: z.string().nullable(),
  /** Authorisations on this channel that are not confirmed deleted. */
  AuthorizationCount: z.number(),
  /** The door's keypad is on (a card with a PIN then needs it; passcodes open the door). */
  Keypad: z.boolean(),
  /** How many passcodes the door has: the codes themselves are write-only. */
  PasscodeCount: z.number(),
  /** How long the door may stand open before it raises a held-open alarm. */
  HeldOpenSeconds: z.number(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type AccessControlChannelItem = z.output<typeof accessControlChannelItem>;

const fields = {
  DoorNumber: enumNumber(doorNumber),
  Name: z.string().trim().min(1).max(50),
  Direction: enumNumber(doorDirection),
  ReaderType: enumNumber(cardReaderType).optional(),
  Remark: optionalText(200),
};

/** WG door control modes (0x80): 1 normally open, 2 normally closed, 3 controlled (closes after the delay). */
export const DOOR_MODES = [1, 2, 3] as const;
export type DoorMode = (typeof DOOR_MODES)[number];
/** The controller keeps the open delay in one byte of seconds; 3 s is its factory setting. */
export const DOOR_DELAY_MAX = 255;
export const DOOR_DELAY_DEFAULT = 3;

export const setDoorModeBody = z.strictObject({
  Id: id,
  Mode: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  Delay: z.number().int().min(0).max(DOOR_DELAY_MAX).optional(),
});
export type SetDoorModeInput = z.output<typeof setDoorModeBody>;

const admin = { tag: ACCESS_CONTROL_TAG, access: ACCESS_CONTROL_ADMIN, area: true } as const;

/**
 * The channel's door (shared by its in and out channels): keypad on or off, up to four passcodes (write-only:
 * absent keeps them, [] clears them; never returned, never in the operation log) and the held-open limit.
 */
export const doorRuleFields = {
  Keypad: z.boolean().optional(),
  // Field paths are Passcodes (the list) and Passcodes.N (one code); the messages are the shared rule's
  // (passcodesProblem), which the channel form checks before sending.
  Passcodes: z
    .array(z.number(PASSCODE).int(PASSCODE).min(1, PASSCODE).max(PASSCODE_MAX, PASSCODE), {
      error: 'validation.passcode',
    })
    .max(PASSCODES_PER_DOOR, { error: 'validation.passcodeCount' })
    .refine((codes) => new Set(codes).size === codes.length, { error: 'validation.passcodeRepeated' })
    .optional(),
  HeldOpenSeconds: z.number().int().min(5).max(3600).optional(),
};

export const AccessControlChannelApi = {
  ...resourceApi({
    name: 'AccessControlChannel',
    tag: ACCESS_CONTROL_TAG,
    area: true,
    read: ACCESS_CONTROL_ANY,
    write: ACCESS_CONTROL_ADMIN,
    item: accessControlChannelItem,
    filters: {
      DeviceId: filterSchema.id(),
      Keyword: filterSchema.text(),
      DoorNumber: filterSchema.oneOf(doorNumber),
      Direction: filterSchema.oneOf(doorDirection),
      ReaderType: filterSchema.oneOf(cardReaderType),
    },
    sorts: ['Device', 'Name', 'DoorNumber', 'CreatedAt'],
    create: z.strictObject({ DeviceId: id, ...fields }),
    update: z.strictObject({ Id: id, ...fields, ...doorRuleFields }),
    remove: true,
  }),
  openDoor: operation({
    ...admin,
    method: 'POST',
    path: '/api/AccessControlChannel/OpenDoor',
    summary: "Open the channel's door now (the controller logs a remote-open record)",
    body: z.strictObject({ Id: id }),
    reply: z.object({ DoorNumber: z.number() }),
  }),
  setDoorMode: operation({
    ...admin,
    method: 'POST',
    path: '/api/AccessControlChannel/SetDoorMode',
    summary:
      "Set the channel's door: 1 normally open, 2 normally closed, 3 controlled (Delay: seconds the lock opens)",
    body: setDoorModeBody,
    reply: z.object({ DoorNumber: z.number(), Mode: z.number(), Delay: z.number() }),
  }),
};
