import type {
  ChargeEquipmentGrid,
  ChargeEquipmentItem,
  ChargeEquipmentSession,
  GridSocket,
  PortStateGroup,
} from '@gatehouse/shared';

/** The running session at a socket, with its live estimate. */
export type SocketSession = ChargeEquipmentSession;

export type { GridSocket, PortStateGroup };

export type SocketRow = ChargeEquipmentItem;

export type SocketGridData = ChargeEquipmentGrid;

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
