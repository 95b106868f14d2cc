import type { ServerModule } from '../../platform/module.ts';
import { chargeEquipmentRoutes } from './charge-equipment/routes.ts';
import { chargeHostRoutes } from './charge-host/routes.ts';
import { chargeOrderRoutes } from './charge-order/routes.ts';
import { chargeRecordRoutes } from './charge-record/routes.ts';
import { chargeRuleRoutes } from './charge-rule/routes.ts';
import { registerGarageDependents } from './dependents.ts';
import { forcedOutageRecordRoutes } from './forced-outage-record/routes.ts';
import { garageDashboardRoutes } from './garage-dashboard/routes.ts';
import { garageMigration } from './migration.ts';
import {
  chargerConfigurationMigration,
  chargerStateMigration,
  ocppMigration,
  ocppSafetyMigration,
} from './device-migrations.ts';
import { heatAlarmMigration } from './heat-migration.ts';
import { powerBudgetMigration } from './tables-power-budget.ts';
import { recordDaysMigration } from './record-days.ts';
import { tariffDimensionsMigration } from './tariff-migration.ts';
import { chargeOrderSocketMigration, recordIndexesMigration } from './record-indexes.ts';
import { monthlyPassRoutes } from './monthly-pass/routes.ts';
import { parkAreaRoutes } from './park-area/routes.ts';
import { emergencyStopRoutes } from './park-area/emergency-routes.ts';
import { emergencyStopMigration } from './tables-emergency.ts';
import { parkOrderRoutes } from './park-order/routes.ts';
import { vehicleRoutes } from './vehicle/routes.ts';

/** The garage module's face; docs/garage.md lists its routes with their permission codes. */
export const garageModule: ServerModule = {
  name: 'garage',
  routes: [
    ...parkAreaRoutes,
    ...emergencyStopRoutes,
    ...chargeRuleRoutes,
    ...chargeHostRoutes,
    ...chargeEquipmentRoutes,
    ...chargeRecordRoutes,
    ...chargeOrderRoutes,
    ...parkOrderRoutes,
    ...forcedOutageRecordRoutes,
    ...vehicleRoutes,
    ...monthlyPassRoutes,
    ...garageDashboardRoutes,
  ],
  migrations: {
    '0004-garage': garageMigration,
    '0006-ocpp': ocppMigration,
    '0008-ocpp-safety': ocppSafetyMigration,
    '0016-charger-state': chargerStateMigration,
    '0020-record-indexes': recordIndexesMigration,
    '0023-record-days': recordDaysMigration,
    '0024-charge-order-socket': chargeOrderSocketMigration,
    '0027-charger-configuration': chargerConfigurationMigration,
    '0028-heat-alarm': heatAlarmMigration,
    '0029-emergency-stop': emergencyStopMigration,
    '0030-power-budget': powerBudgetMigration,
    '0031-tariff-dimensions': tariffDimensionsMigration,
  },
  register: registerGarageDependents,
};

// What other layers use (services and types, never routes): the charger seam (device gateways), the
// protocol-free session services, payment-channel events, the tariff, socket status, the tables.
export {
  chargerGateway,
  type ChargerGateway,
  type PowerOffCommand,
  type PowerOffAnswer,
  type PowerOffReason,
  type ChargerCommand,
  type CommandAnswer,
  type HostTarget,
} from './common/gateway.ts';
// The protocol-free session services device gateways call (docs/chargers.md).
export {
  checkCard,
  sessionRule,
  openDeviceSession,
  meterDeviceSession,
  sessionOnHost,
  type CardStatus,
} from './charge-record/device-sessions.ts';
export { safetyLimitCrossed, type SafetyLimits, type SafetyStop } from './charge-record/safety.ts';
// The one owner of a session's end and of the stop Gatehouse asks a charger for.
export {
  closeDeviceSession,
  closeUnconfirmedSessions,
  closeDroppedSession,
  endSessionsOfLostHost,
  type CloseSessionResult,
  type UnconfirmedSession,
} from './charge-record/settlement.ts';
export { requestSessionStop, releaseSessionStop } from './charge-record/stop-requests.ts';
// The charge point's host and connectors as its protocol reports them (device-facing).
export {
  chargePointCredentials,
  storeChargePointKey,
  releaseChargePoints,
  releaseChargePointsOfGone,
  chargePointHolder,
  chargePointConnected,
  chargePointDisconnected,
  chargePointSeen,
  chargePointBooted,
  chargePointStatus,
  hostsLostPastGrace,
  type ChargePointCredentials,
  type LostHost,
} from './charge-host/charge-point.ts';
// A charger's configuration pass, stored by the host's module (the gateway runs the pass).
export { storeChargerConfiguration, type ConfigurationPass } from './charge-host/configuration.ts';
// A host's heat alarm: the gateway reports a charger's temperatures and HighTemperature faults, and stops the
// sessions the alarm lists (docs/garage.md "Heat").
export {
  heatReported,
  heatStopsDue,
  heatAlarmHubEvent,
  type HeatReport,
  type HeatOutcome,
  type TemperatureReading,
} from './charge-host/heat-alarm.ts';
export {
  connectorReported,
  connectorPower,
  socketOfConnector,
  type ConnectorReport,
  type SocketChange,
} from './charge-equipment/connector.ts';
export { openSessionCount, socketSessions, type SessionScope } from './charge-record/service.ts';
export { isSocketOffline, shownState, LIVE_LINK_SYSTEM_TYPE } from './common/liveness.ts';
export { applyChannelEvent, type OrderKind } from './common/payments.ts';
export { dimensionColumns, tariffOf, orderAmount, usageOf } from './common/pricing.ts';
export { setSocketStatus } from './charge-equipment/service.ts';
// The zone power budget's sweep (app.ts runs it once across the cluster; docs/garage.md "Zone power budget").
export {
  sweepZoneBudgets,
  BUDGET_SWEEP_MS,
  type BudgetAction,
  type BudgetSweepDeps,
} from './park-area/budget.ts';
// A zone's emergency stop as a charge point that connects must be told it (the gateway sends the commands).
export {
  emergencyOnConnect,
  emergencyReleaseReached,
  type EmergencyOnConnect,
} from './park-area/emergency-state.ts';
// Retention of the garage's records (app.ts runs it once across the cluster; docs/performance.md).
export {
  pruneGarageRecords,
  pruneChargeRecords,
  prunePowerOffRecords,
  pruneParkOrders,
  SETTLED_PAYMENT_STATES,
  type GarageRetentionResult,
} from './retention.ts';
export {
  GARAGE_TABLES,
  type GarageTables,
  type ChargeOrderTable,
  type ChargeRecordTable,
  type ForcedOutageRecordTable,
  type ParkOrderTable,
  type TariffDimensionColumns,
} from './tables.ts';
// The record tables counted per area and day (platform/record-days.ts), for whoever loads them in bulk.
export { GARAGE_DAY_COUNTED } from './record-days.ts';
