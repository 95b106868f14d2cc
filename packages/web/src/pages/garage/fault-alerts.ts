import { create } from 'zustand';
import type { HubMessage } from '../../core/hub.ts';

/** A port that entered a fault state, as the hub's `portFault` alert reported it. */
export interface PortFaultAlert {
  /** The hub message's time (ISO). */
  at: string;
  hostId: number;
  serial: string;
  socketId: number;
  portNumber: number;
  state: number;
  errorCode: string | null;
  vendorErrorCode: string | null;
}

/** A `portFault` message as an alert, or null when it is not one. */
export function portFaultAlert(message: HubMessage): PortFaultAlert | null {
  const { hostId, serial, socketId, portNumber, state, errorCode, vendorErrorCode } = message;
  if (
    message.type !== 'portFault' ||
    typeof hostId !== 'number' ||
    typeof socketId !== 'number' ||
    typeof portNumber !== 'number' ||
    typeof state !== 'number'
  )
    return null;
  const text = (v: unknown) => (typeof v === 'string' && v && v !== 'NoError' ? v : null);
  return {
    at: message.at,
    hostId,
    serial: typeof serial === 'string' ? serial : '',
    socketId,
    portNumber,
    state,
    errorCode: text(errorCode),
    vendorErrorCode: text(vendorErrorCode),
  };
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
