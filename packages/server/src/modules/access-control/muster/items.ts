import {
  isoInstant,
  musterSafety,
  occupantKind,
  translate,
  type MusterItem,
  type MusterPersonItem,
  type MusterPoint,
} from '@gatehouse/shared';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { exportColumns } from '../../../platform/export-columns.ts';
import { contains, match, type Where } from '../../../platform/filters.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the resource helper's query and filter types */

/**
 * Roll calls as the screens, the hub and the outward events show them (docs/access-control.md, "Occupancy and
 * muster"): a roll call with its counts, and the people on it. Read only; muster/service.ts and swipes.ts write.
 */

/**
 * How long before a roll call's start a swipe at one of its muster points still counts: a controller's clock is
 * read to the second and may be a little off the server's, and the first people reach the muster point while the
 * operator is still opening the screen. Older swipes (a controller collected late) say nothing about now.
 */
export const MUSTER_EARLY_MS = 2 * 60_000;

const n = (v: unknown) => Number(v ?? 0);
const instant = (v: unknown) => (v === null || v === undefined ? null : isoInstant(Number(v)));

/** Roll calls with how many on each were found safe (counted from the roll, never kept apart from it). */
export function musterQuery(db: Kysely<any>) {
  return db
    .selectFrom('Muster')
    .select([
      'Muster.Id',
      'Muster.AreaId',
      'Muster.Reason',
      'Muster.Points',
      'Muster.Total',
      'Muster.StartedAt',
      'Muster.StartedBy',
      'Muster.EndedAt',
      'Muster.EndedBy',
      'Muster.Note',
    ])
    .select((eb: any) =>
      eb
        .selectFrom('MusterPerson')
        .select(sql<number>`count(*)`.as('n'))
        .whereRef('MusterPerson.MusterId', '=', 'Muster.Id')
        .where('MusterPerson.SafeAt', 'is not', null)
        .as('Safe'),
    );
}

export function toMusterItem(row: Record<string, any>): MusterItem {
  const total = n(row.Total);
  const safe = n(row.Safe);
  return {
    Id: n(row.Id),
    AreaId: n(row.AreaId),
    Reason: row.Reason ?? null,
    StartedAt: isoInstant(n(row.StartedAt)),
    StartedBy: row.StartedBy,
    EndedAt: instant(row.EndedAt),
    EndedBy: row.EndedBy ?? null,
    Note: row.Note ?? null,
    Points: JSON.parse(String(row.Points)) as MusterPoint[],
    Total: total,
    Safe: safe,
    Missing: total - safe,
  };
}

/** One roll call, read in `db` (a transaction's, to see its own writes); undefined when there is none. */
export async function musterById(db: Kysely<Database>, id: number): Promise<MusterItem | undefined> {
  const row = await musterQuery(db).where('Muster.Id', '=', id).executeTakeFirst();
  return row && toMusterItem(row);
}

/** The roll call under way in an area, if any. */
export async function activeMuster(db: Kysely<Database>, areaId: number): Promise<MusterItem | undefined> {
  const row = await musterQuery(db)
    .where('Muster.AreaId', '=', areaId)
    .where('Muster.EndedAt', 'is', null)
    .executeTakeFirst();
  return row && toMusterItem(row);
}

export const musterWhere: { Active: Where<boolean> } = {
  Active: (eb, active) => eb('Muster.EndedAt', active ? 'is' : 'is not', null),
};

export function personQuery(db: Kysely<any>) {
  return db
    .selectFrom('MusterPerson')
    .select([
      'MusterPerson.Id',
      'MusterPerson.MusterId',
      'MusterPerson.CardUserId',
      'MusterPerson.Name',
      'MusterPerson.Phone',
      'MusterPerson.DepartmentName',
      'MusterPerson.Visitor',
      'MusterPerson.CardNumber',
      'MusterPerson.LastAt',
      'MusterPerson.DeviceName',
      'MusterPerson.ChannelName',
      'MusterPerson.SafeAt',
      'MusterPerson.SafeHow',
      'MusterPerson.SafeBy',
      'MusterPerson.Note',
    ]);
}

export function toPersonItem(row: Record<string, any>): MusterPersonItem {
  return {
    Id: n(row.Id),
    MusterId: n(row.MusterId),
    CardUserId: n(row.CardUserId),
    Name: row.Name,
    Phone: row.Phone ?? null,
    DepartmentName: row.DepartmentName ?? null,
    Visitor: n(row.Visitor) === 1,
    CardNumber: row.CardNumber,
    LastAt: isoInstant(n(row.LastAt)),
    DeviceName: row.DeviceName,
    ChannelName: row.ChannelName ?? null,
    Safe: row.SafeAt !== null && row.SafeAt !== undefined,
    SafeAt: instant(row.SafeAt),
    SafeHow: row.SafeHow ?? null,
    SafeBy: row.SafeBy ?? null,
    Note: row.Note ?? null,
  };
}

export const personWhere: {
  MusterId: Where<number>;
  Safe: Where<boolean>;
  Keyword: Where<string>;
} = {
  MusterId: match.equals('MusterPerson.MusterId'),
  Safe: (eb, safe) => eb('MusterPerson.SafeAt', safe ? 'is not' : 'is', null),
  Keyword: (eb, text) =>
    eb.or(
      ['MusterPerson.Name', 'MusterPerson.Phone', 'MusterPerson.CardNumber'].map((c) =>
        contains(eb, c, text),
      ),
    ),
};

export const personSorts = {
  Name: 'MusterPerson.Name',
  SafeAt: 'MusterPerson.SafeAt',
  LastAt: 'MusterPerson.LastAt',
  Id: 'MusterPerson.Id',
};

/** A roll call's result as a sheet: who, where last seen, safe or missing, when and how found. */
export const personExportColumns = exportColumns<MusterPersonItem>('accessControl.field', {
  Name: 16,
  Visitor: { header: 'Occupant', enum: occupantKind, width: 14 },
  DepartmentName: { header: 'Department', width: 18 },
  Phone: 14,
  CardNumber: 14,
  LastAt: 'instant',
  DeviceName: 20,
  ChannelName: 20,
  Safe: { header: 'Safety', enum: musterSafety, width: 12 },
  SafeAt: 'instant',
  SafeHow: {
    width: 20,
    label: (v: unknown, lang) => (v ? translate(lang, `accessControl.musterSafeHow.${String(v)}`) : ''),
  },
  SafeBy: 20,
  Note: 24,
});
