import { FAULT_PORT_STATES, OFFLINE_PORT_STATE } from '@gatehouse/shared';
import type { AreaHub } from '../../modules/system/index.ts';
import type { CentralSystem } from './central-system.ts';

/**
 * What charge points report, published to their area's live hub (docs/chargers.md, "Live"): the socket grid,
 * charging records and dashboard update without reload. Event types:
 * - `socketState` { hostId, socketId, portNumber, state, previousState } (255 for every socket of a host that
 *   went offline: `hostOnline` says which);
 * - `hostOnline` { hostId, online };
 * - `sessionMeter` { hostId, socketId, recordId, energyWh, powerW, estimatedCents };
 * - `sessionStarted` / `sessionEnded` { hostId, socketId, recordId, … orderId, amountCents, stopReason };
 * - `portFault` { hostId, socketId, portNumber, state, errorCode, vendorErrorCode }: an alert, raised when a
 *   port enters a fault state.
 */
export function forwardToHub(central: CentralSystem, hub: AreaHub): void {
  central.on('connected', (e) =>
    hub.publish(e.areaId, { type: 'hostOnline', hostId: e.hostId, online: true }),
  );
  central.on('disconnected', (e) => {
    hub.publish(e.areaId, { type: 'hostOnline', hostId: e.hostId, online: false, state: OFFLINE_PORT_STATE });
  });
  central.on('socketState', (e) => {
    hub.publish(e.areaId, {
      type: 'socketState',
      hostId: e.hostId,
      socketId: e.socketId,
      portNumber: e.portNumber,
      state: e.state,
      previousState: e.previousState,
    });
    if (FAULT_PORT_STATES.includes(e.state) && !FAULT_PORT_STATES.includes(e.previousState)) {
      hub.publish(e.areaId, {
        type: 'portFault',
        hostId: e.hostId,
        serial: e.serial,
        socketId: e.socketId,
        portNumber: e.portNumber,
        state: e.state,
        errorCode: e.errorCode,
        vendorErrorCode: e.vendorErrorCode,
      });
    }
  });
  central.on('sessionStarted', (e) =>
    hub.publish(e.areaId, {
      type: 'sessionStarted',
      hostId: e.hostId,
      socketId: e.socketId,
      portNumber: e.portNumber,
      recordId: e.recordId,
    }),
  );
  central.on('meter', (e) =>
    hub.publish(e.areaId, {
      type: 'sessionMeter',
      hostId: e.hostId,
      socketId: e.socketId,
      portNumber: e.portNumber,
      recordId: e.recordId,
      energyWh: e.energyWh,
      powerW: e.powerW,
      estimatedCents: e.estimatedCents,
    }),
  );
  central.on('sessionEnded', (e) =>
    hub.publish(e.areaId, {
      type: 'sessionEnded',
      hostId: e.hostId,
      socketId: e.socketId,
      portNumber: e.portNumber,
      recordId: e.recordId,
      orderId: e.orderId,
      amountCents: e.amountCents,
      energyWh: e.energyWh,
      stopReason: e.stopReason,
      corrected: e.corrected ?? false,
    }),
  );
}
