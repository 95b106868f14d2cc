/** The running session at a socket, with its live estimate (server: sockets.ts). */
export interface SocketSession {
  ChargeRecordId: number;
  ChargeOrderId: number | null;
  OrderNo: string | null;
  CardNumber: string | null;
  StartAt: string;
  EnergyWh: number;
  DurationMinutes: number;
  EstimatedCents: number | null;
}

export type PortStateGroup = 'idle' | 'occupied' | 'fault' | 'disabled';

export interface GridSocket {
  Id: number;
  PortNumber: number;
  State: number;
  StateColor: string | null;
  StateGroup: PortStateGroup;
  StateChangedAt: string;
  Disabled: boolean;
  Remark: string | null;
  Session: SocketSession | null;
}

export interface SocketRow extends GridSocket {
  ChargeHostId: number;
  HostName: string;
  HostSerialNumber: string;
  ParkAreaId: number;
  ZoneName: string;
  [key: string]: unknown;
}

export interface SocketGridData {
  Host: {
    Id: number;
    Name: string;
    SerialNumber: string;
    ParkAreaId: number;
    ZoneName: string;
    PortCount: number;
    Disabled: boolean;
    Online: boolean;
    LastSeenAt: string | null;
  };
  Sockets: GridSocket[];
  Counts: Record<PortStateGroup, number>;
}

/** What the power-off dialog needs to say which socket and session it cuts. */
export interface PowerOffTarget {
  socketId: number;
  hostName: string;
  portNumber: number;
  session: SocketSession | null;
}

/**
 * A forced power-off is offered where a vehicle is at the socket (the occupied states) or a session runs.
 * The server also accepts a cut on an idle or faulty socket; the screen does not invite one.
 */
export function canPowerOff(socket: Pick<GridSocket, 'StateGroup' | 'Session'>): boolean {
  return socket.Session !== null || socket.StateGroup === 'occupied';
}
