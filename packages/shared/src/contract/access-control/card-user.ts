import { z } from 'zod';
import { nation } from '../../enums/common.ts';
import { chineseName, citizenId, phone, required, type Validator } from '../../validators/rules.ts';
import { zodRule } from '../../validators/adapters.ts';
import { operation, resourceApi } from '../operation.ts';
import { ACCESS_CONTROL_ADMIN, ACCESS_CONTROL_ANY } from '../permissions.ts';
import {
  bodyInstant,
  endAfterStart,
  enumNumber,
  filterSchema,
  id,
  idList,
  idText,
  optionalText,
  queryBool,
} from '../wire.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';

/** Fields a card holder's change record names; each has a label `accessControl.field.<Field>`. */
export const HOLDER_FIELDS = [
  'Name',
  'Phone',
  'CitizenId',
  'Nation',
  'Department',
  'PeopleGroup',
  'PeopleType',
  'Cards',
  'ValidFrom',
  'ValidTo',
  'Remark',
] as const;
export type HolderField = (typeof HOLDER_FIELDS)[number];

export const cardUserCard = z.object({
  Id: z.number(),
  CardNumber: z.string(),
  CardValue: z.number(),
  CardType: z.number(),
});
export type CardUserCard = z.output<typeof cardUserCard>;

/** A CardUser row, as GET /api/CardUser lists it and GET /api/CardUser/{Id} returns it. */
export const cardUserItem = z.object({
  Id: z.number(),
  Name: z.string(),
  Phone: z.string().nullable(),
  CitizenId: z.string().nullable(),
  Nation: z.number(),
  DepartmentId: z.number().nullable(),
  DepartmentName: z.string().nullable(),
  PeopleGroupId: z.number().nullable(),
  PeopleGroupName: z.string().nullable(),
  PeopleTypeId: z.number().nullable(),
  PeopleTypeName: z.string().nullable(),
  ValidFrom: z.string(),
  ValidTo: z.string(),
  /** ValidTo is in the past. */
  Expired: z.boolean(),
  Disabled: z.boolean(),
  Remark: z.string().nullable(),
  Cards: z.array(cardUserCard),
  /** The printed numbers of Cards, for tables and exports. */
  CardNumbers: z.array(z.string()),
  /** Authorisations that are not revoked. */
  AuthorizationCount: z.number(),
  CreatedAt: z.string(),
  UpdatedAt: z.string(),
});
export type CardUserItem = z.output<typeof cardUserItem>;

/** Optional text checked by a shared rule; blank is stored as null. */
const ruled = (max: number, rule: Validator) =>
  z
    .string()
    .trim()
    .max(max)
    .superRefine(zodRule(rule))
    .transform((v) => v || null)
    .nullable()
    .optional();

/** A holder as the form (and each import row) sends it. */
export const holderFields = {
  Name: z.string().trim().superRefine(zodRule(required, chineseName)),
  Phone: ruled(11, phone),
  // Both citizen-id messages come from the shared rule: a wrong shape or date, or a wrong check character.
  CitizenId: ruled(18, citizenId).transform((v) => (v ? v.toUpperCase() : v)),
  Nation: enumNumber(nation).optional(),
  DepartmentId: id.nullable().optional(),
  PeopleGroupId: id.nullable().optional(),
  PeopleTypeId: id.nullable().optional(),
  CardIds: z.array(id).max(20).optional(),
  ValidFrom: bodyInstant,
  ValidTo: bodyInstant,
  Remark: optionalText(200),
};

const holderValidity = endAfterStart('ValidFrom', 'ValidTo');

export const createHolderBody = z.strictObject(holderFields).superRefine(holderValidity);
export const updateHolderBody = z.strictObject({ Id: id, ...holderFields }).superRefine(holderValidity);
/** A holder's fields once parsed (a new holder, an edit, an import row). */
export type HolderInput = z.output<typeof createHolderBody>;
export type UpdateHolderInput = z.output<typeof updateHolderBody>;

/** One row the import refused, and why (the 400's `data.RowErrors`). */
export const importRowError = z.object({ Row: z.number(), Field: z.string(), Message: z.string() });
export type ImportRowError = z.output<typeof importRowError>;

/** The largest template the import takes, in base64 characters (about 1.4 MB of .xlsx). */
export const IMPORT_CONTENT_MAX = 2_000_000;

const TAG = ACCESS_CONTROL_TAG;
const everyday = { tag: TAG, access: ACCESS_CONTROL_ANY, area: true } as const;
const admin = { tag: TAG, access: ACCESS_CONTROL_ADMIN, area: true } as const;

/**
 * Card holders (Admin or User). List, detail, export and delete have the resource shape; every other write
 * is its own operation recording what changed (change records, renewal records). A holder with nothing
 * depending on it may be deleted; otherwise 409 names what remains (disable it instead).
 */
export const CardUserApi = {
  importTemplate: operation({
    ...admin,
    method: 'GET',
    path: '/api/CardUser/ImportTemplate',
    summary: "The .xlsx import template, headers in the caller's language, with the area's accepted values",
    file: true,
  }),
  ...resourceApi({
    name: 'CardUser',
    tag: TAG,
    area: true,
    read: ACCESS_CONTROL_ANY,
    write: ACCESS_CONTROL_ANY,
    item: cardUserItem,
    filters: {
      /** Name, phone, citizen id or card number. */
      Keyword: filterSchema.text(),
      Name: filterSchema.text(),
      Phone: filterSchema.text(),
      CitizenId: filterSchema.text(),
      /** Digits of a card number. */
      CardNumber: filterSchema.equals(10),
      Nation: filterSchema.oneOf(nation),
      /** Includes the department's sub-departments. */
      DepartmentId: filterSchema.id(),
      PeopleGroupId: filterSchema.id(),
      PeopleTypeId: filterSchema.id(),
      Disabled: filterSchema.flag(),
      /** Validity ends at or after this instant. */
      ValidToFrom: filterSchema.instant(),
      /** Validity ends at or before this instant (ValidToTo = now: the expired). */
      ValidToTo: filterSchema.instant(),
    },
    sorts: ['CreatedAt', 'Id', 'Name', 'ValidTo', 'UpdatedAt'],
    remove: true,
  }),
  create: operation({
    ...everyday,
    method: 'POST',
    path: '/api/CardUser',
    summary: 'Add a card holder with cards (writes an "add user" change record)',
    body: createHolderBody,
    reply: cardUserItem,
  }),
  update: operation({
    ...everyday,
    method: 'PUT',
    path: '/api/CardUser',
    summary: 'Edit a card holder (change record; a later ValidTo is an extension with a renewal record)',
    body: updateHolderBody,
    reply: cardUserItem,
  }),
  setStatus: operation({
    ...everyday,
    method: 'POST',
    path: '/api/CardUser/SetStatus',
    summary: 'Disable or enable a card holder (change record; authorisations pending deletion / issue)',
    query: z.object({ Id: idText, Disabled: queryBool }),
  }),
  extend: operation({
    ...everyday,
    method: 'POST',
    path: '/api/CardUser/Extend',
    summary: 'Extend card holders to a later end of validity (change and renewal records; all or none)',
    body: z.strictObject({ Ids: idList(500), ValidTo: bodyInstant, Remark: optionalText(200) }),
  }),
  import: operation({
    ...admin,
    method: 'POST',
    path: '/api/CardUser/Import',
    summary:
      'Import card holders from the template (.xlsx as base64). All or none: any bad row answers 400 with data.RowErrors [{ Row, Field, Message }]',
    body: z.strictObject({
      FileName: z.string().trim().max(200).optional(),
      Content: z.string().min(1).max(IMPORT_CONTENT_MAX),
    }),
    reply: z.object({ Imported: z.number() }),
  }),
};
