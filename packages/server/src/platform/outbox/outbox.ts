import {
  cataloguePayload,
  isoInstant,
  type CatalogueEvent,
  type CatalogueEventType,
} from '@gatehouse/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import './tables.ts';

/**
 * The transactional outbox (docs/integrations.md, "Webhooks" and "MQTT"): the one way an event of the catalogue
 * leaves Gatehouse. A service that stores a change calls `emitEvents` with the same transaction, so the event
 * exists exactly when the change does (a rolled-back change reports nothing; a committed one is never lost,
 * whatever happens to the receivers or the broker). The webhook dispatcher and the MQTT publisher read the
 * table afterwards (webhooks.ts, mqtt.ts). It takes the transaction, not a context: what it writes must share
 * the change's commit, and a gateway's context carries no seams.
 *
 * The payload is checked against the catalogue's schema here, so a receiver never gets an event that its
 * published schema (the AsyncAPI document) does not describe: a mismatch is a programming error and fails the
 * change with it, in tests first.
 */

type Trx = Kysely<Database>;

/** One event to write: its type, when it happened (epoch ms), and its data (area included). */
export type OutboxInput = {
  [T in CatalogueEventType]: { type: T; at: number; data: Extract<CatalogueEvent, { type: T }>['data'] };
}[CatalogueEventType];

/** Rows a multi-row insert carries (5 columns a row): far under both databases' parameter limits. */
const INSERT_ROWS = 200;

/**
 * Each type's payload schema, built once: building one is what costs (about 0.25 ms, against 5 µs to parse with
 * it), and a controller's sync confirms 10,000 authorisations or a gateway stores 10,000 swipes a second, each an
 * event (docs/performance.md).
 */
const payloadSchemas = new Map<CatalogueEventType, ReturnType<typeof cataloguePayload>>();

function payloadSchema(type: CatalogueEventType): ReturnType<typeof cataloguePayload> {
  let schema = payloadSchemas.get(type);
  if (!schema) payloadSchemas.set(type, (schema = cataloguePayload(type)));
  return schema;
}

/** Writes events to the outbox in the caller's transaction, each validated against its catalogue schema. */
export async function emitEvents(trx: Trx, events: OutboxInput[]): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((event) => {
    const payload = payloadSchema(event.type).parse({
      type: event.type,
      timestamp: isoInstant(event.at),
      data: event.data,
    });
    return {
      Type: event.type,
      AreaId: (event.data as { AreaId: number }).AreaId,
      At: event.at,
      Payload: JSON.stringify(payload),
    };
  });
  for (let i = 0; i < rows.length; i += INSERT_ROWS)
    await trx
      .insertInto('OutboxEvent')
      .values(rows.slice(i, i + INSERT_ROWS))
      .execute();
}

/** One event (see emitEvents). */
export function emitEvent(trx: Trx, event: OutboxInput): Promise<void> {
  return emitEvents(trx, [event]);
}

/** Area names by id, for events' `AreaName` (read in the change's transaction). */
export async function areaNames(trx: Trx, ids: Iterable<number>): Promise<Map<number, string>> {
  const list = [...new Set(ids)];
  if (list.length === 0) return new Map();
  const rows = await trx.selectFrom('AreaInfo').select(['Id', 'Name']).where('Id', 'in', list).execute();
  return new Map(rows.map((r) => [r.Id, r.Name]));
}
