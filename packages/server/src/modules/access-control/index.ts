import type { ServerModule } from '../../platform/module.ts';
import { accessControlChannelRoutes } from './access-control-channel/routes.ts';
import { accessControlDashboardRoutes } from './access-control-dashboard/routes.ts';
import { accessControlDeviceRoutes } from './access-control-device/routes.ts';
import { cardRegistrationRoutes } from './card-registration/routes.ts';
import { cardUserLinkChannelRoutes } from './card-user-link-channel/routes.ts';
import { cardUserRoutes } from './card-user/routes.ts';
import { cardRoutes } from './card/routes.ts';
import { changeRecordRoutes, renewalRecordRoutes } from './change-record/routes.ts';
import { registerAccessControlDependents } from './dependents.ts';
import { deviceRegistrationRoutes } from './device-registration/routes.ts';
import { doorOpeningRecordRoutes } from './door-opening-record/routes.ts';
import { failureDeclarationRecordRoutes } from './failure-declaration-record/routes.ts';
import { accessControlMigration } from './migration.ts';
import { wgMigration, wgSentMigration } from './device-migrations.ts';
import { accessControlOptionsRoutes } from './options/routes.ts';
import { accessRulesMigration } from './migration-rules.ts';
import { refusedSwipeMigration, swipeDayCoveringMigration } from './migration-volume.ts';
import { swipePartitionsMigration } from './migration-partitions.ts';
import { timeProfileRoutes } from './time-profile/routes.ts';
import { holidayRoutes } from './holiday/routes.ts';
import { doorScheduleRoutes } from './door-schedule/routes.ts';
import { doorAlarmRoutes } from './door-alarm/routes.ts';
import { doorMonitorRoutes } from './door-monitor/routes.ts';
import { visitorPassRoutes } from './visitor-pass/routes.ts';
import { visitorPassMigration } from './migration-visitor-pass.ts';
import { registerVisitorPassDependents } from './visitor-pass/dependents.ts';
import { areaLockdownRoutes } from './area-lockdown/routes.ts';
import { accessCheckRoutes } from './access-check/routes.ts';
import { lockdownMigration } from './migration-lockdown.ts';
import { occupancyRoutes } from './occupancy/routes.ts';
import { musterRoutes } from './muster/routes.ts';
import { occupancyMigration } from './migration-occupancy.ts';

/** The access-control module's face (the ten screens under /accesscontrol, docs/access-control.md). */
export const accessControlModule: ServerModule = {
  name: 'access-control',
  routes: [
    ...deviceRegistrationRoutes,
    ...cardRegistrationRoutes,
    ...accessControlDeviceRoutes,
    ...accessControlChannelRoutes,
    ...cardRoutes,
    ...cardUserRoutes,
    ...cardUserLinkChannelRoutes,
    ...doorOpeningRecordRoutes,
    ...changeRecordRoutes,
    ...renewalRecordRoutes,
    ...failureDeclarationRecordRoutes,
    ...accessControlOptionsRoutes,
    ...accessControlDashboardRoutes,
    ...timeProfileRoutes,
    ...holidayRoutes,
    ...doorScheduleRoutes,
    ...doorAlarmRoutes,
    ...doorMonitorRoutes,
    ...visitorPassRoutes,
    ...areaLockdownRoutes,
    ...accessCheckRoutes,
    ...occupancyRoutes,
    ...musterRoutes,
  ],
  migrations: {
    '0003-access-control': accessControlMigration,
    '0007-wg': wgMigration,
    '0010-wg-sent': wgSentMigration,
    '0014-access-rules': accessRulesMigration,
    '0021-swipe-day-covering': swipeDayCoveringMigration,
    '0022-refused-swipes': refusedSwipeMigration,
    '0023-swipe-partitions': swipePartitionsMigration,
    '0032-visitor-pass': visitorPassMigration,
    '0033-lockdown': lockdownMigration,
    '0034-occupancy': occupancyMigration,
  },
  register: () => {
    registerAccessControlDependents();
    registerVisitorPassDependents();
  },
};

// What other layers use: the one writer of swipe records and the issue statuses (device gateways), the tables.
export {
  recordSwipe,
  recordSwipes,
  recordCursor,
  storeControllerRecords,
  storePushedRecords,
  storedRecordCount,
  storedRecordIndexes,
  type SwipeInput,
  type ControllerRecordInput,
  type StoredControllerRecord,
} from './door-opening-record/service.ts';
export { swipeEvent } from './door-opening-record/list.ts';
export { recordRingRestarted } from './door-opening-record/ring.ts';
// The door-controller seam (gateways/wg): controllers to drive, their persisted state, the sync plan.
export {
  DoorControllerError,
  doorControllers,
  saveDeviceState,
  syncPlan,
  wgControllers,
  type ControllerCardRead,
  type ControllerRef,
  type DesiredCard,
  type DeviceStatePatch,
  type DoorControllerFailure,
  type DoorControllers,
  type SyncPlan,
} from './access-control-device/controllers.ts';
export { ISSUE } from './card-user-link-channel/lifecycle.ts';
// The device sync's moves of the issue statuses (gateways/wg/sync.ts): authorisations have one writer.
export {
  clearSyncBackoff,
  confirmSync,
  devicesDueForSync,
  failSync,
  markSending,
  syncBacklog,
  type SyncRow,
} from './card-user-link-channel/device-sync.ts';
// The access-rule seam (gateways/wg/rules-sync.ts, door-watch.ts): what a controller must hold besides its cards,
// where its rules stand, the evidence that it forgot them; the doors' live state and the alarms.
export {
  controllerForgot,
  devicesDueForRules,
  ruleSyncFinished,
  ruleSyncRow,
  ruleSyncStarted,
  rulesPlan,
  type PlannedTask,
  type RulePassOutcome,
  type RulesPlan,
} from './access-control-device/rules.ts';
export {
  countWithin,
  noteControllerOnline,
  noteDoorStatus,
  watchDoors,
  type DoorChanges,
} from './door-monitor/service.ts';
export { announceAlarms } from './door-alarm/service.ts';
// The visitor passes' expiry sweep (app.ts, a cluster singleton).
export { endDuePasses } from './visitor-pass/service.ts';
// An area's lockdown (gateways/wg/rules-sync.ts): each door's mode before it, and what the doors answered.
export {
  holdController,
  lockdownDoorsRead,
  lockdownPriorRead,
  type ConfirmedDoor,
  type LockdownDoorRead,
} from './area-lockdown/confirm.ts';
export { lockdownHoldMode, type LockdownDoorPlan, type LockdownPlan } from './area-lockdown/plan.ts';
// For the demo place's seeder (src/demo): the change-log kinds and the swipe records' day length.
export { CHANGE } from './card-user/change-log.ts';
export { DAY_MS } from './door-opening-record/service.ts';
export { pruneSwipeRecords, retentionCutoff } from './door-opening-record/retention.ts';
// Who is inside from the demo's swipe history, written around the ingest (src/demo).
export { occupancyFromRecords } from './occupancy/ingest.ts';
// Monthly partitions of the swipe records on PostgreSQL (the app's singleton job, the demo seeder).
export {
  ensurePartitionsAhead,
  ensureSwipePartitions,
  monthsOf,
  swipePartitions,
} from './door-opening-record/partitions.ts';
export type { AccessControlTables } from './tables.ts';
export type { AccessControlRuleTables } from './tables-rules.ts';
export type { AccessControlVisitorTables } from './tables-visitor-pass.ts';
export type { AreaLockdownTables } from './tables-lockdown.ts';
export type { OccupancyTables } from './tables-occupancy.ts';
