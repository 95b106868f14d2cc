import type { ServiceContext } from '../../../platform/context.ts';

/**
 * The seam to charging hardware (docs/chargers.md, "Forced power-off"). A device gateway (OCPP for hosts of
 * the charging-API type) implements it and the app carries it on every context (ServiceContext.seams); without one, or for a host no gateway
 * drives, a forced power-off is recorded as "not sent" (forcedOutageResult 0) with the reason, and nothing
 * pretends the power was cut.
 */
export interface PowerOffCommand {
  hostId: number;
  serialNumber: string;
  chargingSystemType: number;
  portNumber: number;
  /** The session the operator wants ended, if one was running. */
  chargeRecordId: number | null;
}

/**
 * Why a command did not cut the power: catalogue keys under garage.powerOffResult.
 * notConnected / noDeviceLink: not sent. refused, timeout, error: sent and failed. (noConfirmation, the
 * reason of a record "sent, not confirmed", is the record's, not a gateway's answer.)
 */
export type PowerOffReason = 'notConnected' | 'noDeviceLink' | 'refused' | 'timeout' | 'error';

/**
 * The charger's answer, as soon as it has one (the route never waits on another message). `sent`: it accepted
 * the stop of a running session; its own stop report will end the session (settlement.ts). `cut`: no session
 * ran and it switched the port off. `failed`: refused or unanswered. `notSent`: not this gateway's host, or
 * its charger is not connected.
 */
export type PowerOffAnswer =
  | { outcome: 'sent' }
  | { outcome: 'cut' }
  | { outcome: 'failed'; reason: 'refused' | 'timeout' | 'error'; detail?: string }
  | { outcome: 'notSent'; reason: 'notConnected' | 'noDeviceLink' };

/** The host a command goes to (as a power-off names it). */
export interface HostTarget {
  hostId: number;
  serialNumber: string;
  chargingSystemType: number;
}

/**
 * Operator commands from the screens (docs/chargers.md, "Commands"): start a session for a card on a port,
 * make a port operative or not, restart the host, run one configuration pass on it (its answer is `accepted`
 * once the pass is stored, whatever the charger said per key: the stored pass says that). And the zone power
 * budget's (docs/garage.md "Zone power budget"): limit a running session's power (a SmartCharging host), and
 * take that limit back.
 */
export type ChargerCommand =
  | { kind: 'remoteStart'; portNumber: number; idTag: string }
  | { kind: 'availability'; portNumber: number; operative: boolean }
  | { kind: 'reset'; hard: boolean }
  | { kind: 'configure' }
  | { kind: 'limitPower'; portNumber: number; transactionId: number; limitW: number }
  | { kind: 'clearPowerLimit'; portNumber: number; transactionId: number };

/** accepted / refused carry the device's own status word (Accepted, Rejected, Scheduled, …). */
export type CommandAnswer =
  | { outcome: 'accepted'; status: string }
  | { outcome: 'refused'; status: string }
  | { outcome: 'timeout' }
  | { outcome: 'notSent'; reason: 'notConnected' | 'noDeviceLink' };

export interface ChargerGateway {
  powerOff(command: PowerOffCommand): Promise<PowerOffAnswer>;
  /** Operator commands; a gateway without them answers every command "not sent". */
  command?(host: HostTarget, command: ChargerCommand): Promise<CommandAnswer>;
  /** Sets the device-link password of a host (stored hashed by the gateway; the caller shows it once). */
  setPassword?(hostId: number, password: string): Promise<void>;
}

declare module '../../../platform/context.ts' {
  interface Seams {
    /**
     * The charger gateway of this instance (gateways/ocpp, declared by app.ts while the gateway runs; a test
     * sets its own on the app's seams). Absent: every command is "not sent".
     */
    chargers?: ChargerGateway;
  }
}

/** The gateway the context carries, if any (ServiceContext.seams). */
export function chargerGateway(ctx: ServiceContext): ChargerGateway | undefined {
  return ctx.seams?.chargers;
}
