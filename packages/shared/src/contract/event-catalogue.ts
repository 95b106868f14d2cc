import { z } from 'zod';
import { accessControlDeviceItem } from './access-control/access-control-device.ts';
import { areaLockdownDoor, areaLockdownItem } from './access-control/area-lockdown.ts';
import { cardUserLinkChannelItem } from './access-control/card-user-link-channel.ts';
import { cardUserItem } from './access-control/card-user.ts';
import { doorAlarmItem } from './access-control/door-alarm.ts';
import { doorLiveItem } from './access-control/door-monitor.ts';
import { doorOpeningRecordItem } from './access-control/door-opening-record.ts';
import { musterItem, musterPersonItem } from './access-control/muster.ts';
import { visitorPassItem } from './access-control/visitor-pass.ts';
import { chargeEquipmentItem } from './garage/charge-equipment.ts';
import { chargeOrderItem } from './garage/charge-order.ts';
import { chargeRecordItem } from './garage/charge-record.ts';
import { zoneEmergencyStopItem } from './garage/emergency-stop.ts';
import { forcedOutageRecordItem } from './garage/forced-outage-record.ts';
import { heatAlarmItem } from './garage/heat-alarm.ts';
import { parkOrderItem } from './garage/park-order.ts';
import type { HubEventType } from './events.ts';

/**
 * The event catalogue (docs/integrations.md, "Event catalogue"): every event Gatehouse tells the site's other
 * systems about (webhooks, MQTT), declared once with its schema. The AsyncAPI document (`/api/asyncapi.json`)
 * is generated from it.
 *
 * An event's data is what an operator sees of the object on its screen: the list item of the contract, not a
 * copy of it, plus the area (`AreaId`, `AreaName`). Fields stay in the API's PascalCase, so a receiver that
 * already reads the REST API reads events the same way; the envelope (`type`, `timestamp`, `data`) follows the
 * Standard Webhooks convention. Codes (a swipe's `Reason`, a socket's `State`) are the API's enumerations,
 * labelled in the reference and the web app's catalogues.
 *
 * Where the live hub (events.ts) reports the same fact to the browsers, `live` names its event: the two carry
 * the same item schemas, so a screen and a receiver see the same values.
 */

/** The area every event happened in. */
const area = { AreaId: z.number(), AreaName: z.string() };

/** A door controller as an online or offline event names it. */
const controller = z.object({
  ...area,
  DeviceId: accessControlDeviceItem.shape.Id,
  DeviceName: accessControlDeviceItem.shape.Name,
  ...accessControlDeviceItem.pick({ SerialNumber: true, LastSeenAt: true, Firmware: true }).shape,
});

/** A charging session (the charging-record list's row). */
const chargingSession = chargeRecordItem.extend(area);

/**
 * Who charged, so that the site's own channel (SMS, app push) can tell them a session ended and why: the holder of
 * the session's card, or, for a vehicle's card, the vehicle and its owner. Null when no card started it or the
 * card is no longer known.
 */
export const sessionHolder = z.object({
  CardUserId: z.number().nullable(),
  Name: z.string().nullable(),
  Phone: z.string().nullable(),
  VehicleId: z.number().nullable(),
  Plate: z.string().nullable(),
});

/** An order as both order lists show it, less the buttons the caller may press (a receiver presses none). */
const settledOrder = z.discriminatedUnion('Kind', [
  chargeOrderItem.omit({ Actions: true }).extend({ ...area, Kind: z.literal('ChargeOrder') }),
  parkOrderItem.omit({ Actions: true }).extend({ ...area, Kind: z.literal('ParkOrder') }),
]);

/** A card holder as the holder list shows it. */
const holder = cardUserItem.extend(area);

/** What happened to an authorisation. */
export const AUTHORISATION_CHANGES = ['granted', 'updated', 'revoked'] as const;

interface CatalogueEntry {
  /** One line, for the AsyncAPI document and docs/integrations.md. */
  summary: string;
  /** Which screens' vocabulary it belongs to. */
  module: 'access-control' | 'garage';
  /** The `data` of the event. */
  data: z.ZodType;
  /** The live hub's event for the same fact, if there is one (its payload is the browser's shape). */
  live?: HubEventType;
}

function entry<D extends z.ZodType>(
  value: Omit<CatalogueEntry, 'data'> & { data: D },
): Omit<CatalogueEntry, 'data'> & { data: D } {
  return value;
}

export const eventCatalogue = {
  // ---- access control ---------------------------------------------------------------------------------------
  'swipe.recorded': entry({
    summary:
      'A swipe or door event was stored: card, holder, door, direction, result and reason, as the swipe list shows it',
    module: 'access-control',
    data: doorOpeningRecordItem.extend(area),
    live: 'Swipe',
  }),
  'door.state': entry({
    summary: "A door's live state changed (closed, open, unlocked, held open, forced, controller offline)",
    module: 'access-control',
    data: doorLiveItem.extend(area),
    live: 'DoorState',
  }),
  'door.alarm.raised': entry({
    summary: 'A door or controller raised an alarm (forced, held open, repeated refused swipes, offline)',
    module: 'access-control',
    data: doorAlarmItem.extend(area),
    live: 'AlarmRaised',
  }),
  'door.alarm.acknowledged': entry({
    summary: 'An operator acknowledged an alarm, with a note',
    module: 'access-control',
    data: doorAlarmItem.extend(area),
    live: 'AlarmChanged',
  }),
  'controller.online': entry({
    summary: 'A door controller answers again (or for the first time)',
    module: 'access-control',
    data: controller,
    live: 'DeviceStatus',
  }),
  'controller.offline': entry({
    summary: 'A door controller stopped answering',
    module: 'access-control',
    data: controller,
    live: 'DeviceStatus',
  }),
  'area.lockdown_started': entry({
    summary:
      'An area was put under lockdown (every door normally closed) or evacuation (every door normally open): mode, who, reason, and each door as its controller confirmed it so far',
    module: 'access-control',
    data: areaLockdownItem.extend(area),
    live: 'Lockdown',
  }),
  'area.lockdown_released': entry({
    summary:
      "An area's lockdown or evacuation was released, with a note: each door goes back to its own mode, delay and schedule",
    module: 'access-control',
    data: areaLockdownItem.extend(area),
    live: 'Lockdown',
  }),
  'door.lockdown_confirmed': entry({
    summary:
      "A door's controller confirmed, read back, the lockdown's mode (State held) or, after the release, the door's own mode (State restored)",
    module: 'access-control',
    data: areaLockdownDoor.extend({
      ...area,
      LockdownId: z.number(),
      LockdownMode: areaLockdownItem.shape.Mode,
    }),
    live: 'LockdownDoor',
  }),
  'muster.started': entry({
    summary:
      'A roll call started: everyone inside the area then is on it, missing until marked safe; its muster points and counts',
    module: 'access-control',
    data: musterItem.extend(area),
    live: 'Muster',
  }),
  'muster.person_safe': entry({
    summary:
      "Someone on a roll call was marked safe, by an operator or by a granted swipe at a muster point; the roll call's counts after it",
    module: 'access-control',
    data: musterPersonItem.extend({
      ...area,
      Total: musterItem.shape.Total,
      Safe: musterItem.shape.Safe,
      Missing: musterItem.shape.Missing,
    }),
    live: 'Muster',
  }),
  'muster.ended': entry({
    summary: 'A roll call ended: how many were on it, found safe and still missing',
    module: 'access-control',
    data: musterItem.extend(area),
    live: 'Muster',
  }),
  'holder.created': entry({
    summary: 'A card holder was added',
    module: 'access-control',
    data: holder,
  }),
  'holder.updated': entry({
    summary: "A card holder's details, cards or validity changed",
    module: 'access-control',
    data: holder,
  }),
  'holder.deleted': entry({
    summary: 'A card holder was deleted (with their authorisations)',
    module: 'access-control',
    data: cardUserItem.pick({ Id: true, Name: true, CardNumbers: true }).extend(area),
  }),
  'authorisation.changed': entry({
    summary: 'An authorisation (a holder on a door) was granted, changed or revoked',
    module: 'access-control',
    data: cardUserLinkChannelItem.extend({ ...area, Change: z.enum(AUTHORISATION_CHANGES) }),
  }),
  'visitor.pass.issued': entry({
    summary:
      'A visitor pass was issued: visitor, host, doors, window and its card (the QR code encodes its CardValue)',
    module: 'access-control',
    data: visitorPassItem.extend(area),
  }),
  'visitor.pass.ended': entry({
    summary:
      'A visitor pass ended: it expired (State 2) or was revoked (State 3); its card leaves the controllers',
    module: 'access-control',
    data: visitorPassItem.extend(area),
  }),

  // ---- garage -----------------------------------------------------------------------------------------------
  'charging.session.started': entry({
    summary: 'A charging session started at a socket',
    module: 'garage',
    data: chargingSession,
    live: 'SessionStarted',
  }),
  'charging.session.ended': entry({
    summary:
      'A charging session ended, for any reason (completion, the user, a safety stop): socket, energy, stop reason, the settled amount, and who charged (Holder), to tell them',
    module: 'garage',
    data: chargingSession.extend({ Holder: sessionHolder.nullable() }),
    live: 'SessionEnded',
  }),
  'socket.state': entry({
    summary: "A socket's state changed (idle, charging, full, fault, offline…)",
    module: 'garage',
    data: chargeEquipmentItem
      .omit({ Session: true, StateColor: true, Remark: true, CreatedAt: true, UpdatedAt: true })
      .extend({ ...area, PreviousState: chargeEquipmentItem.shape.State }),
    live: 'SocketState',
  }),
  'socket.power_off': entry({
    summary:
      "An operator cut a socket's power: the socket, operator, reason and outcome, as the power-off records show it",
    module: 'garage',
    data: forcedOutageRecordItem.extend(area),
    live: 'PowerOffConfirmed',
  }),
  'charger.heat_alarm.raised': entry({
    summary:
      "A charging host's temperature passed its zone's limit, or its charger reported HighTemperature: the host, zone, temperature, limit and the sessions stopped",
    module: 'garage',
    data: heatAlarmItem.extend(area),
    live: 'HeatAlarm',
  }),
  'charger.heat_alarm.cleared': entry({
    summary: "An operator cleared a charging host's heat alarm, with a note: sessions may start there again",
    module: 'garage',
    data: heatAlarmItem.extend(area),
    live: 'HeatAlarm',
  }),
  'zone.emergency_stopped': entry({
    summary:
      'A parking zone was put under emergency stop: who and why, the sessions stopped and the connectors made Inoperative, the chargers not reached',
    module: 'garage',
    data: zoneEmergencyStopItem.extend(area),
    live: 'ZoneEmergency',
  }),
  'zone.emergency_released': entry({
    summary:
      "A parking zone's emergency stop was released, with a note: connectors Operative again (sockets disabled by an operator stay off)",
    module: 'garage',
    data: zoneEmergencyStopItem.extend(area),
    live: 'ZoneEmergency',
  }),
  'order.settled': entry({
    summary: "An order's amount became final (its charging session ended, or the vehicle left)",
    module: 'garage',
    data: settledOrder,
  }),
};

export type CatalogueEventType = keyof typeof eventCatalogue;

/** Every type in the catalogue, in its order. */
export const CATALOGUE_EVENT_TYPES = Object.keys(eventCatalogue) as CatalogueEventType[];

/** An event's payload: the Standard Webhooks envelope around its data, the same on every transport. */
export function cataloguePayload<T extends CatalogueEventType>(type: T) {
  return z.object({
    /** The catalogue type. */
    type: z.literal(type),
    /** When it happened (ISO 8601, UTC). */
    timestamp: z.iso.datetime(),
    data: eventCatalogue[type].data as (typeof eventCatalogue)[T]['data'],
  });
}

/** One event of the catalogue, as a receiver gets it. */
export type CatalogueEvent = {
  [T in CatalogueEventType]: {
    type: T;
    timestamp: string;
    data: z.output<(typeof eventCatalogue)[T]['data']>;
  };
}[CatalogueEventType];

/** The MQTT topic of an event in an area (`gatehouse/<areaId>/<type>`). */
export function eventTopic(areaId: number, type: CatalogueEventType): string {
  return `gatehouse/${areaId}/${type}`;
}

/** The AsyncAPI document, served beside the OpenAPI one (API_DOCS_PATH). */
export const ASYNCAPI_PATH = '/api/asyncapi.json';
