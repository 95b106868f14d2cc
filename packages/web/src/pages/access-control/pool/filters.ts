import type { OptionSource } from '../../../components/list-page/index.ts';

/** In an area or waiting in the pool (the `Assigned` filter of both pools). */
export const assignedOptions: OptionSource = {
  kind: 'static',
  options: (t) => [
    { value: true, label: t('acUi.pool.assigned') },
    { value: false, label: t('acUi.pool.unassigned') },
  ],
};

/** Given to a holder or free (the `Held` filter of cards). */
export const heldOptions: OptionSource = {
  kind: 'static',
  options: (t) => [
    { value: true, label: t('acUi.card.held') },
    { value: false, label: t('acUi.card.free') },
  ],
};
