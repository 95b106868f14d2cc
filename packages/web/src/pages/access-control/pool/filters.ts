import type { FieldDef, FilterDef, OptionSource } from '../../../components/list-page/index.ts';
import { useAreaStore } from '../../../stores/area.ts';

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

/** The areas the signed-in user operates, read when a select shows them (the session has them by then). */
export const ownAreaOptions: OptionSource = {
  kind: 'static',
  options: () => useAreaStore.getState().areas.map((a) => ({ value: a.Id, label: a.Name })),
};

/** The end of both register forms: an area to assign to at once (or the pool), and a remark. */
export const poolTargetFields: FieldDef[] = [
  {
    name: 'AreaId',
    label: 'accessControl.field.Area',
    kind: 'select',
    options: ownAreaOptions,
    extra: 'acUi.pool.areaHint',
  },
  { name: 'Remark', label: 'accessControl.field.Remark', kind: 'textarea', maxLength: 200 },
];
