import type { FilterDef, OptionSource } from '../../../components/list-page/index.ts';

/** In an area or waiting in the pool (the `Assigned` filter of both pools). */
export const assignedOptions: OptionSource = {
  kind: 'static',
  options: (t) => [
    { value: true, label: t('acUi.pool.assigned') },
    { value: false, label: t('acUi.pool.unassigned') },
  ],
};

/** The `Assigned` filter as both pools show it. */
export const assignedFilter: FilterDef = {
  name: 'Assigned',
  label: 'accessControl.field.Assigned',
  kind: 'select',
  options: assignedOptions,
  width: 130,
};

/** Given to a holder or free (the `Held` filter of cards). */
export const heldOptions: OptionSource = {
  kind: 'static',
  options: (t) => [
    { value: true, label: t('acUi.card.held') },
    { value: false, label: t('acUi.card.free') },
  ],
};
