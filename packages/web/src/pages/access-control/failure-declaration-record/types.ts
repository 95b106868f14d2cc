import type { FailureDeclarationRecordItem, FailureHistoryEntry } from '@gatehouse/shared';

export type FaultHistoryEntry = FailureHistoryEntry;

export type FaultRow = FailureDeclarationRecordItem;

/** faultReportStatus values. */
export const FAULT_OPEN = 0;
export const FAULT_RESOLVED = 2;
