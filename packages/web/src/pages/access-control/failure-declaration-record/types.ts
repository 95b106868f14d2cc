import type { FailureDeclarationRecordItem, FailureHistoryEntry } from '@gatehouse/shared';

export type FaultHistoryEntry = FailureHistoryEntry;

export type FaultRow = FailureDeclarationRecordItem;
