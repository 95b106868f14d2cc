export interface FaultHistoryEntry {
  At: string;
  Status: number;
  Note: string | null;
  OperatorName: string;
  HandlerName: string | null;
}

export interface FaultRow {
  Id: number;
  DeviceId: number;
  DeviceName: string;
  ChannelId: number | null;
  ChannelName: string | null;
  Description: string;
  Status: number;
  HandlerId: number | null;
  HandlerName: string | null;
  ReporterName: string;
  History: FaultHistoryEntry[];
  ReportedAt: string;
  ResolvedAt: string | null;
  [key: string]: unknown;
}

/** faultReportStatus values. */
export const FAULT_OPEN = 0;
export const FAULT_RESOLVED = 2;
