import type { HeatAlarmItem, OcppHostStatus } from '@gatehouse/shared';

/**
 * What the central system tells the rest of the server, for the live hub (socket grid, host screen) and the
 * liveness watch. Every event names the host and its area, so a listener can publish to the area's hub.
 */
export interface HostRef {
  hostId: number;
  areaId: number;
  serial: string;
  /** Server clock, epoch ms. */
  at: number;
}

export interface SocketStateEvent extends HostRef {
  socketId: number;
  portNumber: number;
  /** chargePortState after the report. */
  state: number;
  previousState: number;
  ocppStatus: string;
  errorCode: string;
  vendorErrorCode: string | null;
}

export interface MeterEvent extends HostRef {
  socketId: number;
  portNumber: number;
  /** The running session (the OCPP transactionId). */
  recordId: number;
  startAt: number;
  energyWh: number;
  powerW: number | null;
  /** The running estimate (cents) with the order's copied terms, the same function as the final price. */
  estimatedCents: number | null;
}

export interface SessionEvent extends HostRef {
  socketId: number;
  portNumber: number;
  recordId: number;
}

export interface SessionEndedEvent extends SessionEvent {
  orderId: number | null;
  amountCents: number | null;
  energyWh: number;
  stopReason: number;
  /** The device's stop corrected a session Gatehouse had closed as a power failure (offline host). */
  corrected?: boolean;
  /** Power-off records this stop confirmed: "power cut" now. */
  powerOffRecordIds: number[];
}

export interface OcppEvents {
  connected: [HostRef];
  disconnected: [HostRef];
  boot: [HostRef & { vendor: string; model: string; firmwareVersion: string | null }];
  heartbeat: [HostRef];
  hostStatus: [HostRef & { status: OcppHostStatus; errorCode: string }];
  socketState: [SocketStateEvent];
  sessionStarted: [SessionEvent];
  meter: [MeterEvent];
  sessionEnded: [SessionEndedEvent];
  /** The host entered heat alarm (docs/chargers.md "Heat"): its sessions are being stopped, nothing starts. */
  heatAlarm: [HostRef & { alarm: HeatAlarmItem }];
}
