import { describe, expect, it } from 'vitest';
import { moduleOf, tableWriters } from '../../../scripts/writers.mjs';

/**
 * One writer per state (issue 28, docs/architecture.md "One owner per state"): each table's rows are written
 * by one module, whose service face the others call. The writers are read from the source
 * (scripts/writers.mjs, also printed by `npm run measures`); a second module writing a table, or a new table
 * nobody named here, fails this test until the write moves behind the owner's face or the table is named.
 */
const A = 'modules/access-control';
const G = 'modules/garage';
const S = 'modules/system';

/** The one module that writes each table. */
const WRITER: Record<string, string> = {
  // A device leaving its area takes its channels through access-control-channel/defaults.ts.
  AccessControlChannel: `${A}/access-control-channel`,
  AccessControlDevice: `${A}/device-registration`,
  AccessControlDeviceState: `${A}/access-control-device`,
  AccessControlDoorRule: `${A}/access-control-channel`,
  AccessControlDoorState: `${A}/door-monitor`,
  // The swipe ledger and its collection cursor: the swipe service is the single way in (recordRingRestarted
  // included, which clears them when a controller's record ring starts over).
  AccessControlRecordCursor: `${A}/door-opening-record`,
  DoorOpeningRecord: `${A}/door-opening-record`,
  DoorOpeningRecordDay: `${A}/door-opening-record`,
  DoorOpeningRecordKey: `${A}/door-opening-record`,
  // A controller's rule-sync row; the door monitor's record watermark in it is stored through the rules' face.
  AccessControlRuleSync: `${A}/access-control-device`,
  // API keys: made, revoked and marked as used only through platform/auth/api-keys.ts (the key store).
  ApiKey: 'platform/auth',
  ApiKeyArea: 'platform/auth',
  // The outbox: events written through platform/outbox/outbox.ts (emitEvents, in the change's transaction);
  // subscriptions through platform/outbox/subscriptions.ts (the routes call it), their deliveries through
  // platform/outbox/webhooks.ts (the dispatcher and sender).
  OutboxEvent: 'platform/outbox',
  Webhook: 'platform/outbox',
  WebhookDelivery: 'platform/outbox',
  AppUser: `${S}/app-user`,
  // An area's lockdowns and what each door's controller answered under them (confirm.ts, for the gateway).
  AreaLockdown: `${A}/area-lockdown`,
  AreaLockdownDoor: `${A}/area-lockdown`,
  // Who is inside: moved by the swipe ingest in the record's transaction (occupancy/ingest.ts, called by the swipe
  // records' writer); an area's reset hour by occupancy/service.ts.
  Occupancy: `${A}/occupancy`,
  OccupancySetting: `${A}/occupancy`,
  // Roll calls: started, marked and ended by muster/service.ts, marked by a muster point's swipe in the ingest's
  // transaction (muster/swipes.ts).
  Muster: `${A}/muster`,
  MusterPerson: `${A}/muster`,
  AreaInfo: `${S}/area-info`,
  AuditLog: 'platform/audit',
  // A holder takes and gives back cards through the registry's setHolderCards (card-registration/service.ts).
  Card: `${A}/card-registration`,
  CardUser: `${A}/card-user`,
  // Authorisations and their issue status: the device sync's confirmations and failures included.
  CardUserLinkChannel: `${A}/card-user-link-channel`,
  ChangeRecord: `${A}/card-user`,
  ChargeHost: `${G}/charge-host`,
  // A charger's last configuration pass, stored through charge-host/configuration.ts by the OCPP gateway.
  ChargeHostConfiguration: `${G}/charge-host`,
  // A host's heat alarms: raised by a charger's reports and cleared by an operator through charge-host/heat-alarm.ts.
  ChargeHostHeatAlarm: `${G}/charge-host`,
  // A host's sockets are inserted with it, and a session's meter values and end store the socket's metering,
  // through charge-equipment (insertHostSockets, storeFullSince, endSocketMetering).
  ChargeEquipment: `${G}/charge-equipment`,
  // Sessions and their orders; the garage's retention removes expired ones through charge-record/expiry.ts.
  ChargeOrder: `${G}/charge-record`,
  ChargeRecord: `${G}/charge-record`,
  DoorAlarm: `${A}/door-alarm`,
  ExportFile: 'platform/exports',
  // A job's whole life; the export-job service creates and deletes jobs through platform/exports/jobs.ts.
  ExportJob: 'platform/exports',
  FailureDeclarationRecord: `${A}/failure-declaration-record`,
  // The retention's removal included (deleteExpiredPowerOffs in forced-outage-record/records.ts).
  ForcedOutageRecord: `${G}/forced-outage-record`,
  HubTicket: 'platform/auth',
  Instance: 'platform/cluster',
  Lease: 'platform/cluster',
  LoginAttempt: 'platform/auth',
  LoginLock: 'platform/auth',
  MonthlyPass: `${G}/monthly-pass`,
  ParkAreaChargeRule: `${G}/charge-rule`,
  // What the power budget's sweep found and did per zone: written by park-area/budget.ts only.
  ParkAreaPower: `${G}/park-area`,
  // A zone's emergency stops: stored, released and their outcomes written by park-area/emergency-stop.ts only.
  ParkAreaEmergencyStop: `${G}/park-area`,
  ParkOrder: G,
  RecordDay: 'platform/record-days',
  RenewalRecord: `${A}/card-user`,
  // Sessions: a password change, a disable and reset-admin end them through platform/auth/sessions.ts.
  Session: 'platform/auth',
  Setting: `${S}/settings`,
  // The profiles of visitor passes' windows (the operators' own go through the resource helper, written by none).
  TimeProfile: `${A}/time-profile`,
  // A new area is granted to its non-admin creator through app-user's grantArea.
  UserArea: `${S}/app-user`,
  Vehicle: `${G}/monthly-pass`,
  // Visitor passes: issued, revoked and ended by the expiry sweep through visitor-pass/service.ts only.
  VisitorPass: `${A}/visitor-pass`,
};

/**
 * Tables still written by more than one module, each with why and what would make one writer: none now. None
 * may be in gateways/ (a gateway writes through the modules' faces; eslint gatehouse/gateway-tables).
 */
const SHARED: Record<string, { writers: string[]; why: string }> = {};

describe('one writer per table', () => {
  const { tables } = tableWriters();
  const found = Object.fromEntries(
    [...tables].map(([table, byModule]) => [table, [...byModule.keys()].sort()]),
  );

  it('each table is written by the modules named here, and by no other', () => {
    const expected = Object.fromEntries([
      ...Object.entries(WRITER).map(([table, writer]) => [table, [writer]]),
      ...Object.entries(SHARED).map(([table, s]) => [table, [...s.writers].sort()]),
    ]);
    expect(found).toEqual(expected);
  });

  it('names each table once, and no shared table is written from a gateway', () => {
    expect(Object.keys(WRITER).filter((t) => t in SHARED)).toEqual([]);
    expect(Object.values(SHARED).flatMap((s) => s.writers.filter((w) => w.startsWith('gateways/')))).toEqual(
      [],
    );
  });

  it('reads a write where it is and names its module (the reader itself)', () => {
    expect(moduleOf('modules/access-control/card-user-link-channel/lifecycle.ts')).toBe(
      `${A}/card-user-link-channel`,
    );
    expect(moduleOf('modules/garage/retention.ts')).toBe(G);
    expect(moduleOf('platform/audit.ts')).toBe('platform/audit');
    expect(moduleOf('platform/auth/sessions.ts')).toBe('platform/auth');
    expect(moduleOf('gateways/wg/sync.ts')).toBe('gateways/wg');
    const statements = tables.get('CardUserLinkChannel')?.get(`${A}/card-user-link-channel`) ?? [];
    expect(statements).toContainEqual(
      expect.stringMatching(/^modules\/access-control\/card-user-link-channel\//),
    );
  });
});
