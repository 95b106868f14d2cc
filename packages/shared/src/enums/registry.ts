import {
  accessControlProtocol,
  accessControlType,
  cardReaderType,
  cardType,
  changeType,
  doorNumber,
  doorRecordResult,
  issueStatus,
} from './access-control.ts';
import {
  antiPassbackMode,
  doorAlarmKind,
  doorAlarmState,
  doorLiveState,
  doorScheduleAction,
  interlockMode,
} from './access-rules.ts';
import { disabledFlag, nation, wechatUserType } from './common.ts';
import { doorDirection, doorEventReason, doorRecordReason, faultReportStatus } from './doors.ts';
import type { EnumValueOf } from './define.ts';
import {
  chargePortState,
  chargeStopReason,
  chargeType,
  chargingSystemType,
  forcedOutageResult,
  paymentState,
  temporaryChargeType,
  timeUnit,
} from './garage.ts';
import { visitorPassState } from './visitor-pass.ts';
import { musterSafety, occupantKind } from './muster.ts';

/** Every enumeration by name; the catalogues' `enum` namespace must label each value of each one. */
export const ENUMS = {
  disabledFlag,
  accessControlProtocol,
  accessControlType,
  doorNumber,
  cardReaderType,
  cardType,
  issueStatus,
  changeType,
  doorRecordResult,
  doorDirection,
  doorRecordReason,
  doorEventReason,
  faultReportStatus,
  doorScheduleAction,
  interlockMode,
  antiPassbackMode,
  doorAlarmKind,
  doorAlarmState,
  doorLiveState,
  visitorPassState,
  musterSafety,
  occupantKind,
  chargeType,
  temporaryChargeType,
  timeUnit,
  chargingSystemType,
  wechatUserType,
  chargePortState,
  paymentState,
  chargeStopReason,
  forcedOutageResult,
  nation,
} as const;

export type EnumName = keyof typeof ENUMS;

/** The shape the Chinese `enum` catalogue must have: one label per value of every enumeration. */
export type EnumLabels = {
  readonly [N in EnumName]: { readonly [V in `${EnumValueOf<(typeof ENUMS)[N]>}`]: string };
};
