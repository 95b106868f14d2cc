import { FAULT_PORT_STATES, OFFLINE_PORT_STATE } from '@gatehouse/shared';
import { heatAlarmHubEvent } from '../../modules/garage/index.ts';
import type { LiveEvents } from '../../platform/gateway.ts';
import type { CentralSystem } from './central-system.ts';

/**
 * What charge points report, published to their area's live hub (docs/chargers.md, "Live"): the socket grid,
 * charging records and dashboard update without reload. Event types:
 * - `SocketState` (255 for every socket of a host that went offline: `HostOnline` says which);
 * - `HostOnline`, `SessionStarted`, `SessionMeter`, `SessionEnded`;
 * - `PowerOffConfirmed`: the charger's stop confirmed a forced power-off (the record is "power cut" now);
 * - `PortFault`: an alert, raised when a port enters a fault state;
 * - `HeatAlarm`: a host entered heat alarm (an operator's clearing is published by the garage's service).
 * Their shapes are the contract's (`hubEventSchemas` in packages/shared).
 */
export function forwardToHub(central: CentralSystem, hub: LiveEvents): void {
  central.on('connected', (e) =>
    hub.publish(e.areaId, { Type: 'HostOnline', HostId: e.hostId, Online: true }),
  );
  central.on('disconnected', (e) => {
    hub.publish(e.areaId, { Type: 'HostOnline', HostId: e.hostId, Online: false, State: OFFLINE_PORT_STATE });
  });
  central.on('socketState', (e) => {
    hub.publish(e.areaId, {
      Type: 'SocketState',
      HostId: e.hostId,
      SocketId: e.socketId,
      PortNumber: e.portNumber,
      State: e.state,
      PreviousState: e.previousState,
    });
    if (FAULT_PORT_STATES.includes(e.state) && !FAULT_PORT_STATES.includes(e.previousState)) {
      hub.publish(e.areaId, {
        Type: 'PortFault',
        HostId: e.hostId,
        Serial: e.serial,
        SocketId: e.socketId,
        PortNumber: e.portNumber,
        State: e.state,
        ErrorCode: e.errorCode,
        VendorErrorCode: e.vendorErrorCode,
      });
    }
  });
  central.on('heatAlarm', (e) => hub.publish(e.areaId, heatAlarmHubEvent(e.alarm)));
  central.on('sessionStarted', (e) =>
    hub.publish(e.areaId, {
      Type: 'SessionStarted',
      HostId: e.hostId,
      SocketId: e.socketId,
      PortNumber: e.portNumber,
      RecordId: e.recordId,
    }),
  );
  central.on('meter', (e) =>
    hub.publish(e.areaId, {
      Type: 'SessionMeter',
      HostId: e.hostId,
      SocketId: e.socketId,
      PortNumber: e.portNumber,
      RecordId: e.recordId,
      EnergyWh: e.energyWh,
      PowerW: e.powerW,
      EstimatedCents: e.estimatedCents,
    }),
  );
  central.on('sessionEnded', (e) => {
    hub.publish(e.areaId, {
      Type: 'SessionEnded',
      HostId: e.hostId,
      SocketId: e.socketId,
      PortNumber: e.portNumber,
      RecordId: e.recordId,
      OrderId: e.orderId,
      AmountCents: e.amountCents,
      EnergyWh: e.energyWh,
      StopReason: e.stopReason,
      Corrected: e.corrected ?? false,
    });
    // The power-off dialog and record list turn "sent, not confirmed" into "power cut" without a reload.
    for (const recordId of e.powerOffRecordIds) {
      hub.publish(e.areaId, {
        Type: 'PowerOffConfirmed',
        ForcedOutageRecordId: recordId,
        SocketId: e.socketId,
        ChargeRecordId: e.recordId,
        OrderId: e.orderId,
        AmountCents: e.amountCents,
      });
    }
  });
}
