import { create } from 'zustand';
import type { HubEventOf } from '@gatehouse/shared';

/** A port that entered a fault state, as the hub's `PortFault` alert reported it. */
export interface PortFaultAlert {
  /** The event's time (ISO). */
  At: string;
  HostId: number;
  Serial: string;
  SocketId: number;
  PortNumber: number;
  State: number;
  /** What the charger reported (none: "NoError" or empty). */
  ErrorCode: string | null;
  VendorErrorCode: string | null;
}

/** A `PortFault` event as an alert: the charger's codes kept only when they say something. */
export function portFaultAlert(event: HubEventOf<'PortFault'>): PortFaultAlert {
  const text = (v: string | null) => (v && v !== 'NoError' ? v : null);
  return {
    At: event.At,
    HostId: event.HostId,
    Serial: event.Serial,
    SocketId: event.SocketId,
    PortNumber: event.PortNumber,
    State: event.State,
    ErrorCode: text(event.ErrorCode),
    VendorErrorCode: text(event.VendorErrorCode),
  };
}

/** "OtherError / RelayStuck": what the charger reported, for the technician. */
export function faultCode(alert: Pick<PortFaultAlert, 'ErrorCode' | 'VendorErrorCode'>): string {
  return [alert.ErrorCode, alert.VendorErrorCode].filter(Boolean).join(' / ');
}

/** The dashboard lists the latest few; older ones are in the socket screens' states and the audit of the device. */
export const FAULT_ALERTS_KEPT = 10;

interface FaultAlertState {
  /** Newest first, of this area, since the page was opened. */
  alerts: PortFaultAlert[];
  add(alert: PortFaultAlert): void;
  clear(): void;
}

export const useFaultAlerts = create<FaultAlertState>()((set) => ({
  alerts: [],
  add: (alert) => set((s) => ({ alerts: [alert, ...s.alerts].slice(0, FAULT_ALERTS_KEPT) })),
  clear: () => set({ alerts: [] }),
}));
