import type { CatalogueShape } from '@gatehouse/shared';
import type { accessCheckUi as zh } from '../zh/accessCheckUi.ts';

export const accessCheckUi: CatalogueShape<typeof zh> = {
  form: {
    card: 'Card number',
    cardPlaceholder: 'Card number (1 to 10 digits)',
    door: 'Door',
    doorPlaceholder: "Choose a controller's door",
    at: 'Time',
    atPlaceholder: 'Now',
    check: 'Check',
    again: 'Check again',
    empty: 'Enter a card number and choose a door to see why the card is let in or refused',
    zone: "The area's time ({{zone}})",
  },
  side: {
    server: "Gatehouse's side",
    controller: "The controller's side",
    readAt: 'Read live at {{time}}',
    notRead: 'Not read',
    failed: 'The check failed',
  },
  disagree: {
    title: 'Gatehouse and the controller disagree',
    syncNow: 'Sync now',
    syncStarted: 'The controller is being synced; check again once it is done',
    adminOnly: 'An access-control administrator can sync this controller now',
  },
  who: {
    keyword: 'Name or card number',
    title: 'Who can pass this door at {{time}}',
    titleNow: 'Who can pass this door now',
    held: 'This door is normally closed at that time: no card lets anyone through',
    visitor: 'Visitor',
    anyTime: 'At any time',
  },
  action: {
    check: 'Access check',
  },
};
