import { z } from 'zod';
import { operation } from '../operation.ts';
import { ACCESS_CONTROL_ANY } from '../permissions.ts';
import { ACCESS_CONTROL_TAG } from './common.ts';
import { doorAlarmItem } from './door-alarm.ts';
import { doorOpeningRecordItem } from './door-opening-record.ts';

/** A door as the live monitor shows it, from the controller's status replies and events. */
export const doorLiveItem = z.object({
  DeviceId: z.number(),
  DeviceName: z.string(),
  SerialNumber: z.string(),
  DoorNumber: z.number(),
  /** The door's channel names, joined. */
  DoorName: z.string().nullable(),
  /** doorLiveState: 0 unknown, 1 closed, 2 open, 3 unlocked, 4 held open, 5 forced, 6 controller offline */
  State: z.number(),
  /** Door sensor and lock relay as last reported; null before the first report. */
  Open: z.boolean().nullable(),
  Unlocked: z.boolean().nullable(),
  /** Since when the door is in this state. */
  Since: z.string().nullable(),
  /** How long the door may stand open before it is held open. */
  HeldOpenSeconds: z.number(),
});
export type DoorLiveItem = z.output<typeof doorLiveItem>;

export const doorMonitorReply = z.object({
  Doors: z.array(doorLiveItem),
  /** The newest door events and swipes of the area. */
  Events: z.array(doorOpeningRecordItem),
  /** Alarms waiting for an operator, newest first. */
  OpenAlarms: z.array(doorAlarmItem),
});
export type DoorMonitorReply = z.output<typeof doorMonitorReply>;

/** The live door monitor (AccessControl/Admin or User); the hub keeps it current (DoorState, Alarm…). */
export const DoorMonitorApi = {
  state: operation({
    tag: ACCESS_CONTROL_TAG,
    access: ACCESS_CONTROL_ANY,
    area: true,
    method: 'GET',
    path: '/api/DoorMonitor',
    summary: 'Every door of the area with its live state, the latest events and the open alarms',
    reply: doorMonitorReply,
  }),
};
