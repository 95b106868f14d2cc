import { z } from 'zod';
import { operation } from '../operation.ts';
import { ACCESS_CONTROL_ANY } from '../permissions.ts';

/**
 * Choices for the access-control screens' filters and forms (like /api/Options/* of the platform): the
 * area's controllers, their channels grouped by controller, and card holders by name, phone or card.
 */
export const channelOption = z.object({
  Id: z.number(),
  Name: z.string(),
  DoorNumber: z.number(),
  Direction: z.number(),
});
export type ChannelOption = z.output<typeof channelOption>;

export const deviceChannelsOption = z.object({
  DeviceId: z.number(),
  DeviceName: z.string(),
  Protocol: z.number(),
  Channels: z.array(channelOption),
});
export type DeviceChannelsOption = z.output<typeof deviceChannelsOption>;

/** A controller to choose (GET /api/Options/AccessControlDevices). */
export const accessControlDeviceOption = z.object({
  Id: z.number(),
  Name: z.string(),
  SerialNumber: z.string(),
  Protocol: z.number(),
  Type: z.number(),
});
export type AccessControlDeviceOption = z.output<typeof accessControlDeviceOption>;

/** A card holder to choose (GET /api/Options/CardUsers). */
export const cardUserOption = z.object({
  Id: z.number(),
  Name: z.string(),
  Phone: z.string().nullable(),
  Disabled: z.boolean(),
});
export type CardUserOption = z.output<typeof cardUserOption>;

/** How many holders a search answers at most. */
export const CARD_USER_OPTIONS_MAX = 50;

const choices = { tag: 'Options', access: ACCESS_CONTROL_ANY, area: true, method: 'GET' } as const;

export const AccessControlOptionsApi = {
  devices: operation({
    ...choices,
    path: '/api/Options/AccessControlDevices',
    summary: "The current area's controllers",
    reply: z.array(accessControlDeviceOption),
  }),
  channels: operation({
    ...choices,
    path: '/api/Options/AccessControlChannels',
    summary: "The current area's channels grouped by controller (for granting and filters)",
    reply: z.array(deviceChannelsOption),
  }),
  cardUsers: operation({
    ...choices,
    path: '/api/Options/CardUsers',
    summary: 'Card holders of the current area by name, phone or card number (at most 50)',
    query: z.object({ Keyword: z.string().trim().min(1).max(50).optional() }),
    reply: z.array(cardUserOption),
  }),
};
