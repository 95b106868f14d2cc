import type { Generated } from 'kysely';

/** A visitor pass (migration 0032-visitor-pass, docs/access-control.md "Visitor passes"). */
export interface VisitorPassTable {
  Id: Generated<number>;
  AreaId: number;
  /** The holder row the visitor is on the controllers as: its authorisations are the pass's doors. */
  CardUserId: number;
  /** The card generated for the pass (never reused: a photographed QR code dies with its pass). */
  CardId: number;
  CardNumber: string;
  VisitorName: string;
  Phone: string | null;
  Company: string | null;
  HostCardUserId: number;
  /** The host's name when the pass was issued (the log outlives renames). */
  HostName: string;
  /** JSON array of the channels chosen. */
  ChannelIds: string;
  ValidFrom: number;
  /** Exclusive. */
  ValidTo: number;
  /** 1 when a time profile carries its hours on the controllers (0: whole days). */
  HoursOnController: Generated<number>;
  /** visitorPassState: 1 valid, 2 expired, 3 revoked. */
  State: Generated<number>;
  EndedAt: number | null;
  EndedBy: string | null;
  CreatedBy: string | null;
  CreatedAt: number;
  UpdatedAt: number;
}

export interface AccessControlVisitorTables {
  VisitorPass: VisitorPassTable;
}

declare module '../../db/schema.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged, not empty
  interface Database extends AccessControlVisitorTables {}
}
