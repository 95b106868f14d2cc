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

/** The host a grid shows, as far as its commands need it. */
export type GridHost = SocketGridData['Host'];

/**
 * A session can be started from the screen (RemoteStartTransaction) only through a live device link that is
 * connected now, on an enabled socket with no session, where a bike can be: idle, waiting for the card (170),
 * or plugged in and not charging. The charger still decides (a port with nothing plugged in refuses).
 */
const REMOTE_START_STATES: readonly number[] = [0, 2, 3, 170];

export function canRemoteStart(
  socket: Pick<GridSocket, 'State' | 'Disabled' | 'Session'>,
  host: Pick<GridHost, 'LiveLink' | 'Online' | 'Disabled'>,
): boolean {
  return (
    host.LiveLink &&
    host.Online &&
    !host.Disabled &&
    !socket.Disabled &&
    socket.Session === null &&
    REMOTE_START_STATES.includes(socket.State)
  );
}

/** What the remote-start dialog needs to say where the session would start. */
export interface RemoteStartTarget {
  socketId: number;
  hostName: string;
  portNumber: number;
}
