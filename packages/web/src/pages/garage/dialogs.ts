import { create } from 'zustand';
import type {
  ChargeHostItem,
  ChargeOrderItem,
  HeatAlarmItem,
  MonthlyPassItem,
  OrderKind,
  ParkOrderItem,
  PaymentAction,
} from '@gatehouse/shared';
import type { PowerOffTarget, RemoteStartTarget } from './charge-equipment/types.ts';

/** An order of either kind: the payment actions need only what both carry. */
export type OrderRow = ChargeOrderItem | ParkOrderItem;

/**
 * The garage screens' dialogs and what each is open on. The lists are declared once, outside any component,
 * so their row actions open a dialog through here; each screen mounts the dialogs it offers.
 */
export interface GarageDialogs {
  powerOff: PowerOffTarget;
  remoteStart: RemoteStartTarget;
  orderAction: { kind: OrderKind; action: PaymentAction; order: OrderRow };
  /** A host's new OCPP password, shown once. */
  ocppPassword: { host: ChargeHostItem; password: string };
  /** Selling a pass; preset on a vehicle when sold from its row. */
  sellPass: { vehicleId?: number | undefined };
  renewPass: MonthlyPassItem;
  /** Clearing a host's heat alarm with a note. */
  clearHeatAlarm: { hostId: number; hostName: string; alarm: HeatAlarmItem };
}

type Open = { [K in keyof GarageDialogs]: GarageDialogs[K] | null };

export const useGarageDialogs = create<Open>()(() => ({
  powerOff: null,
  remoteStart: null,
  orderAction: null,
  ocppPassword: null,
  sellPass: null,
  renewPass: null,
  clearHeatAlarm: null,
}));

export function openDialog<K extends keyof GarageDialogs>(key: K, value: GarageDialogs[K]): void {
  useGarageDialogs.setState({ [key]: value } as Partial<Open>);
}

export function closeDialog(key: keyof GarageDialogs): void {
  useGarageDialogs.setState({ [key]: null } as Partial<Open>);
}
