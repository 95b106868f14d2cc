import type { CatalogueShape } from '@gatehouse/shared';
import type { lockdownUi as zh } from '../zh/lockdownUi.ts';

export const lockdownUi: CatalogueShape<typeof zh> = {
  mode: {
    lockdown: 'Lockdown',
    evacuate: 'Evacuation',
  },
  banner: {
    lockdown: 'This area is locked down: every door normally closed, no card opens it',
    evacuate: 'This area is being evacuated: every door normally open',
    detail: 'Since {{time}}, by {{who}}: {{reason}}',
    confirmed: '{{confirmed}} of {{total}} doors confirmed by their controllers',
    open: 'Door monitor',
  },
  panel: {
    title: 'Lockdown and evacuation',
    none: 'This area is neither locked down nor evacuated',
    start: 'Lock down or evacuate…',
    release: 'Release…',
    restoring: 'Released at {{time}}; doors going back to their own modes: {{confirmed}} of {{total}}',
  },
  startDialog: {
    title: 'Lock down or evacuate this area',
    lockdownHelp: 'Lockdown: every door normally closed, no card opens it, door schedules paused',
    evacuateHelp: 'Evacuation: every door normally open, door schedules paused',
    reason: 'Reason',
    reasonPlaceholder: 'Required: why (written to the operation log and sent to other systems)',
    confirm: 'Confirm',
    started: 'Sent; each door shows as confirmed once its controller answers',
  },
  releaseDialog: {
    title: 'Release the lockdown or evacuation',
    help: 'Each door goes back to its own mode, delay and door schedules',
    note: 'Release note',
    notePlaceholder: 'Required: why it is released, or what was done',
    confirm: 'Release',
    released: 'Released; the doors are going back to their own modes',
  },
  door: {
    pending: 'Waiting for the controller',
    held: 'Confirmed {{mode}}',
    restoring: 'Going back',
    restored: 'Back to {{mode}}',
    unreached: 'Controller never answered: unchanged',
  },
};
