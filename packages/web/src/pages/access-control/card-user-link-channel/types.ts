import type { CardUserLinkChannelItem, DeviceStatusCount } from '@gatehouse/shared';

/** An authorisation as the list shows it (effective validity: its own range within the holder's). */
export type AuthorizationRow = CardUserLinkChannelItem;

/** Authorisations of one device in each issue status (keys '-2' … '3'). */
export type { DeviceStatusCount };
