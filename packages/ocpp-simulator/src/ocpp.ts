/**
 * The OCPP 1.6 (edition 2) message shapes the simulator sends and answers, written from the official JSON
 * schemas that ocpp-rpc ships (lib/schemas/ocpp1_6.json). Only the fields used here: strict mode rejects
 * anything else, so a field missing from this file is one the simulator never sends.
 */

export type ChargePointStatus =
  | 'Available'
  | 'Preparing'
  | 'Charging'
  | 'SuspendedEVSE'
  | 'SuspendedEV'
  | 'Finishing'
  | 'Reserved'
  | 'Unavailable'
  | 'Faulted';

export type ChargePointErrorCode =
  | 'ConnectorLockFailure'
  | 'EVCommunicationError'
  | 'GroundFailure'
  | 'HighTemperature'
  | 'InternalError'
  | 'LocalListConflict'
  | 'NoError'
  | 'OtherError'
  | 'OverCurrentFailure'
  | 'PowerMeterFailure'
  | 'PowerSwitchFailure'
  | 'ReaderFailure'
  | 'ResetFailure'
  | 'UnderVoltage'
  | 'OverVoltage'
  | 'WeakSignal';

export type AuthorizationStatus = 'Accepted' | 'Blocked' | 'Expired' | 'Invalid' | 'ConcurrentTx';

export type StopReason =
  | 'EmergencyStop'
  | 'EVDisconnected'
  | 'HardReset'
  | 'Local'
  | 'Other'
  | 'PowerLoss'
  | 'Reboot'
  | 'Remote'
  | 'SoftReset'
  | 'UnlockCommand'
  | 'DeAuthorized';

export interface IdTagInfo {
  status: AuthorizationStatus;
  expiryDate?: string;
  parentIdTag?: string;
}

export interface BootNotificationConf {
  status: 'Accepted' | 'Pending' | 'Rejected';
  currentTime: string;
  /** Seconds: the heartbeat interval when Accepted, the retry delay otherwise (0: the charge point chooses). */
  interval: number;
}

export interface SampledValue {
  value: string;
  context?: 'Sample.Periodic' | 'Transaction.Begin' | 'Transaction.End' | 'Trigger';
  measurand?: 'Energy.Active.Import.Register' | 'Power.Active.Import' | 'Temperature';
  unit?: 'Wh' | 'W' | 'Celsius';
  /** Where it was measured: a connector's samples are its outlet's (OCPP's default), connector 0's the body's. */
  location?: 'Body' | 'Outlet';
}

export interface MeterValue {
  timestamp: string;
  sampledValue: SampledValue[];
}

export interface StartTransactionReq {
  connectorId: number;
  idTag: string;
  meterStart: number;
  timestamp: string;
}

export interface StartTransactionConf {
  idTagInfo: IdTagInfo;
  transactionId: number;
}

export interface StopTransactionReq {
  transactionId: number;
  meterStop: number;
  timestamp: string;
  idTag?: string;
  reason?: StopReason;
  transactionData?: MeterValue[];
}

export interface MeterValuesReq {
  connectorId: number;
  transactionId?: number;
  meterValue: MeterValue[];
}

export interface StatusNotificationReq {
  connectorId: number;
  errorCode: ChargePointErrorCode;
  status: ChargePointStatus;
  timestamp?: string;
  info?: string;
  vendorId?: string;
  vendorErrorCode?: string;
}

export type TriggerableMessage =
  | 'BootNotification'
  | 'DiagnosticsStatusNotification'
  | 'FirmwareStatusNotification'
  | 'Heartbeat'
  | 'MeterValues'
  | 'StatusNotification';
