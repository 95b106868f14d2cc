import { z } from 'zod';
import { issueStatus } from '../../enums/access-control.ts';
import { operation, resourceApi } from '../operation.ts';
import { ACCESS_CONTROL_ADMIN, ACCESS_CONTROL_ANY } from '../permissions.ts';
import { bodyInstant, filterSchema, id, idList } from '../wire.ts';
import { ACCESS_CONTROL_TAG, validityFields, validityOrder } from './common.ts';

/**
 * An authorisation as the list shows it. ValidFrom/ValidTo are the effective validity: the
 * authorisation's own range (CustomValidity) within the holder's, or the holder's when it has none.
 */
export const cardUserLinkChannelItem = z.object({
  Id: z.number(),
  CardUserId: z.number(),
  HolderName: z.string(),
  HolderDisabled: z.boolean(),
  DepartmentId: z.number().nullable(),
  DepartmentName: z.string().nullable(),
  CardNumbers: z.array(z.string()),
  ChannelId: z.number(),
  ChannelName: z.string(),
  DoorNumber: z.number(),
  Direction: z.number(),
  DeviceId: z.number(),
  DeviceName: z.string(),
  SerialNumber: z.string(),
  Protocol: z.number(),
  ValidFrom: z.string(),
  ValidTo: z.string(),
  CustomValidity: z.boolean(),
  /** When the card opens the door (null: at any time within the validity). */
  TimeProfileId: z.number().nullable(),
  TimeProfileName: z.string().nullable(),
  IssueStatus: z.number(),
  Revoked: z.boolean(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type CardUserLinkChannelItem = z.output<typeof cardUserLinkChannelItem>;

/** What a grant did: new (or revoked and granted again), validity changed, already as asked. */
export const grantResult = z.object({ Granted: z.number(), Updated: z.number(), Unchanged: z.number() });
export type GrantResult = z.output<typeof grantResult>;

/** What a batch grant did, and whom it left out. */
export const batchGrantResult = grantResult.extend({
  /** Holders of the department or group. */
  Holders: z.number(),
  /** Left out: disabled, or without a card. */
  SkippedDisabled: z.number(),
  SkippedNoCard: z.number(),
});
export type BatchGrantResult = z.output<typeof batchGrantResult>;

export const revokeResult = z.object({ Revoked: z.number(), Removed: z.number() });
export type RevokeResult = z.output<typeof revokeResult>;

/** One controller's authorisations by issue status (GET /api/CardUserLinkChannel/DeviceStatusCounts). */
export const deviceStatusCount = z.object({
  DeviceId: z.number(),
  DeviceName: z.string(),
  SerialNumber: z.string(),
  Protocol: z.number(),
  Disabled: z.boolean(),
  /** Authorisations per issue status, every status present (keys '-2' … '3'). */
  Counts: z.record(z.string(), z.number()),
  /** Waiting for the device sync: pending issue, update and deletion. */
  Pending: z.number(),
  Total: z.number(),
  /**
   * The controller as the WG gateway last found it (docs/devices.md), for the authorisation screen's sync
   * panel; null / 0 for a device the gateway does not drive (protocol Other) or has not talked to yet.
   * Online is null (unknown) while no gateway runs, whatever was stored before.
   */
  Online: z.boolean().nullable(),
  LastSeenAt: z.string().nullable(),
  /** The sync pass: 'running' | 'done' | 'failed' | null; while running, phase 'read' | 'write' and progress. */
  SyncState: z.string().nullable(),
  SyncPhase: z.string().nullable(),
  SyncDone: z.number(),
  SyncTotal: z.number(),
  SyncStartedAt: z.string().nullable(),
  SyncFinishedAt: z.string().nullable(),
  /** Why the last pass failed: 'offline' | 'refused' | 'timeout'. */
  SyncError: z.string().nullable(),
  /** Pending authorisations whose last attempt failed, the most attempts among them and when the next retry is due. */
  Failing: z.number(),
  SyncAttempts: z.number(),
  NextSyncAt: z.string().nullable(),
});
export type DeviceStatusCount = z.output<typeof deviceStatusCount>;

/** A grant's time profile: an id of the area's, or null (absent) for "at any time". */
const timeProfileField = { TimeProfileId: id.nullable().optional() };

/** Channels to grant onto, with an optional validity and time profile of their own. */
const grantTarget = { ChannelIds: idList(200), ...validityFields, ...timeProfileField };

export const grantBody = z.strictObject({ CardUserId: id, ...grantTarget }).superRefine(validityOrder);
export type GrantInput = z.output<typeof grantBody>;

/** A department (sub-departments included unless IncludeSubDepartments is false) or a people group. */
export const batchGrantBody = z
  .strictObject({
    DepartmentId: id.optional(),
    IncludeSubDepartments: z.boolean().optional(),
    PeopleGroupId: id.optional(),
    ...grantTarget,
  })
  .superRefine(validityOrder);
export type BatchGrantInput = z.output<typeof batchGrantBody>;

export const changeValidityBody = z
  .strictObject({
    Id: id,
    ValidFrom: bodyInstant.nullable(),
    ValidTo: bodyInstant.nullable(),
    /** Absent: unchanged. */
    ...timeProfileField,
  })
  .superRefine(validityOrder);
export type ChangeValidityInput = z.output<typeof changeValidityBody>;

const everyday = { tag: ACCESS_CONTROL_TAG, access: ACCESS_CONTROL_ANY, area: true } as const;

/**
 * Authorisations (Admin or User): one holder on one channel. Both codes grant to one holder, change
 * validity and revoke; a batch grant over a department or people group is AccessControl/Admin's. No
 * operation sets the success states (3, -2): they belong to the device sync.
 */
export const CardUserLinkChannelApi = {
  deviceStatusCounts: operation({
    ...everyday,
    method: 'GET',
    path: '/api/CardUserLinkChannel/DeviceStatusCounts',
    summary: "Per controller of the area: authorisations in each issue status (Counts['-2'] … Counts['3'])",
    reply: z.array(deviceStatusCount),
  }),
  ...resourceApi({
    name: 'CardUserLinkChannel',
    tag: ACCESS_CONTROL_TAG,
    area: true,
    read: ACCESS_CONTROL_ANY,
    write: ACCESS_CONTROL_ANY,
    item: cardUserLinkChannelItem,
    filters: {
      CardUserId: filterSchema.id(),
      /** Holder name or phone, or a card number. */
      Keyword: filterSchema.text(),
      CardNumber: filterSchema.equals(10),
      DeviceId: filterSchema.id(),
      ChannelId: filterSchema.id(),
      IssueStatus: filterSchema.oneOf(issueStatus),
      /** Includes sub-departments. */
      DepartmentId: filterSchema.id(),
      PeopleGroupId: filterSchema.id(),
      TimeProfileId: filterSchema.id(),
      Revoked: filterSchema.flag(),
    },
    sorts: ['UpdatedAt', 'Id', 'HolderName', 'DeviceName', 'IssueStatus'],
  }),
  grant: operation({
    ...everyday,
    method: 'POST',
    path: '/api/CardUserLinkChannel/Grant',
    summary: "Grant one holder's cards onto channels (pending issue; on a no-sync device no issue needed)",
    body: grantBody,
    reply: grantResult,
  }),
  batchGrant: operation({
    ...everyday,
    access: ACCESS_CONTROL_ADMIN,
    method: 'POST',
    path: '/api/CardUserLinkChannel/BatchGrant',
    summary:
      'Grant a department (sub-departments included unless IncludeSubDepartments is false) or a people group onto channels',
    body: batchGrantBody,
    reply: batchGrantResult,
  }),
  update: operation({
    ...everyday,
    method: 'PUT',
    path: '/api/CardUserLinkChannel',
    summary:
      "Change an authorisation's own validity (null: follow the holder's) and time profile; pending update",
    body: changeValidityBody,
  }),
  revoke: operation({
    ...everyday,
    method: 'POST',
    path: '/api/CardUserLinkChannel/Revoke',
    summary: 'Revoke authorisations (pending deletion; removed at once on a no-sync device); all or none',
    body: z.strictObject({ Ids: idList(500) }),
    reply: revokeResult,
  }),
};
