import { z } from 'zod';
import { accessControlProtocol, accessControlType } from '../../enums/access-control.ts';
import { antiPassbackMode, interlockMode } from '../../enums/access-rules.ts';
import { operation, resourceApi } from '../operation.ts';
import { ACCESS_CONTROL_ADMIN, ACCESS_CONTROL_ANY } from '../permissions.ts';
import { enumNumber, filterSchema, id, optionalText } from '../wire.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';

/** A controller as both device screens show it. */
export const accessControlDeviceItem = z.object({
  Id: z.number(),
  AreaId: z.number().nullable(),
  AreaName: z.string().nullable(),
  SerialNumber: z.string(),
  Name: z.string(),
  Protocol: z.number(),
  Type: z.number(),
  /** Doors of the type (1, 2 or 4; 4 for an unspecified type): the channel form's door-number limit. */
  DoorCount: z.number(),
  Ip: z.string().nullable(),
  Port: z.number().nullable(),
  Location: z.string().nullable(),
  Remark: z.string().nullable(),
  Disabled: z.boolean(),
  ChannelCount: z.number(),
  AssignedAt: z.string().nullable(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
  /** WG controllers, as the device gateway last found them: null until it talked to the controller. */
  Online: z.boolean().nullable(),
  LastSeenAt: z.string().nullable(),
  Firmware: z.string().nullable(),
  /** Controller clock minus server clock, seconds, and when it was read. */
  ClockDriftSeconds: z.number().nullable(),
  DriftCheckedAt: z.string().nullable(),
  /**
   * Several instances (docs/deployment.md): no live instance drives the controller at this moment, from the
   * lease table and the instance registry (its lease ran out or was given up, or its holder is not a live
   * instance); another takes it over within a lease term. False on one process, which drives them all.
   */
  BetweenOwners: z.boolean(),
  /** Where the controller pushes its events ("host:port"). */
  ListenerAddress: z.string().nullable(),
  /** Authorisation sync: 'running' | 'done' | 'failed' | null, phase 'read' | 'write', progress. */
  SyncState: z.string().nullable(),
  SyncPhase: z.string().nullable(),
  SyncDone: z.number(),
  SyncTotal: z.number(),
  SyncFinishedAt: z.string().nullable(),
  /** Why the last sync failed: offline, refused, timeout. */
  SyncError: z.string().nullable(),
  /** Records the controller overwrote before Gatehouse collected them. */
  LostRecords: z.number(),
  /** The next ring index the collection reads. */
  NextRecordIndex: z.number().nullable(),
  /** interlockMode and antiPassbackMode the controller is to enforce (WG; 0 off). */
  Interlock: z.number(),
  AntiPassback: z.number(),
  /**
   * Access rules on the controller (time profiles, task list, interlock, anti-passback, keypads, passcodes,
   * door modes): 'pending' | 'running' | 'done' | 'failed' | null (never synced), why it failed, and when the
   * last pass ended. `RulesRestoredAt`: when a controller that had forgot its settings was last given them back.
   */
  RuleSyncState: z.string().nullable(),
  RuleSyncError: z.string().nullable(),
  RuleSyncAt: z.string().nullable(),
  RulesRestoredAt: z.string().nullable(),
  /** Controller profile slots (2..254) its cards' time profiles take. */
  ProfileSlots: z.number(),
});
export type AccessControlDeviceItem = z.output<typeof accessControlDeviceItem>;

/** The sort keys of device management; the first is the default. */
export const DEVICE_SORTS = ['Name', 'Id', 'SerialNumber', 'CreatedAt'] as const;

/** A controller command's target: one device of the current area. */
const deviceCommand = z.strictObject({ Id: id });
const admin = { tag: ACCESS_CONTROL_TAG, access: ACCESS_CONTROL_ADMIN, area: true } as const;

/**
 * Device management (AccessControl/Admin): the area's controllers. Serial, protocol and type are fixed at
 * registration; an edit changes only what describes the device on site. Both access-control codes may read
 * the list (devices are picked in the other screens' filters). The commands reach the controller through
 * the WG gateway and answer once it confirmed.
 */
export const AccessControlDeviceApi = {
  ...resourceApi({
    name: 'AccessControlDevice',
    tag: ACCESS_CONTROL_TAG,
    area: true,
    read: ACCESS_CONTROL_ANY,
    write: ACCESS_CONTROL_ADMIN,
    item: accessControlDeviceItem,
    filters: {
      Keyword: filterSchema.text(),
      Protocol: filterSchema.oneOf(accessControlProtocol),
      Type: filterSchema.oneOf(accessControlType),
      Disabled: filterSchema.flag(),
    },
    sorts: DEVICE_SORTS,
    update: z.strictObject({
      Id: id,
      Name: z.string().trim().min(1).max(50),
      Ip: z.ipv4().nullable().optional(),
      Port: z.number().int().min(1).max(65535).nullable().optional(),
      Location: optionalText(100),
      Remark: optionalText(200),
      /** Only the modes the model supports (interlockModes / antiPassbackModes of its door count). */
      Interlock: enumNumber(interlockMode).optional(),
      AntiPassback: enumNumber(antiPassbackMode).optional(),
    }),
    status: true,
  }),
  setTime: operation({
    ...admin,
    method: 'POST',
    path: '/api/AccessControlDevice/SetTime',
    summary: "Set the controller's clock to the server's time (in the area's zone); answers the drift it had",
    body: deviceCommand,
    reply: z.object({ DriftSeconds: z.number().nullable() }),
  }),
  syncNow: operation({
    ...admin,
    method: 'POST',
    path: '/api/AccessControlDevice/SyncNow',
    summary:
      "Compare the controller's access rules and card list with Gatehouse's now and correct them (progress on the hub)",
    body: deviceCommand,
    reply: z.object({ Started: z.boolean() }),
  }),
};
