/**
 * The seam to real charging hardware. The device issue implements it (OCPP RemoteStopTransaction or the
 * vendor API of the host's charging system type) and installs it at start; until then none is installed and
 * a forced power-off is recorded as "not sent" (forcedOutageResult 0) — nothing pretends to be a device.
 */
export interface PowerOffCommand {
  hostId: number;
  serialNumber: string;
  chargingSystemType: number;
  portNumber: number;
  /** The session ended by the operator, if one was running. */
  chargeRecordId: number | null;
}

export interface ChargerGateway {
  /** Resolves true when the device confirmed the power cut, false when it refused or did not answer in time. */
  powerOff(command: PowerOffCommand): Promise<boolean>;
}

let installed: ChargerGateway | undefined;

export function installChargerGateway(gateway: ChargerGateway | undefined): void {
  installed = gateway;
}

export function chargerGateway(): ChargerGateway | undefined {
  return installed;
}
