import type { CardUserItem } from '@gatehouse/shared';
import { chineseName, citizenId, nation, phone } from '@gatehouse/shared';
import type { FilterDef, FormDef } from '../../../components/list-page/index.ts';
import { departmentOptions, peopleGroupOptions, peopleTypeOptions } from '../../options.ts';
import { FreeCardSelect, type CardValue } from './FreeCardSelect.tsx';
import { siteNow } from '../../../core/site-time.ts';

export type HolderRow = CardUserItem;

/**
 * Department (a value means the department and everything under it), people group and type: fields of the
 * holder form and filters of the holder and authorisation lists.
 */
export const holderGroups = {
  department: {
    name: 'DepartmentId',
    label: 'accessControl.field.Department',
    kind: 'treeSelect',
    options: departmentOptions,
  },
  peopleGroup: {
    name: 'PeopleGroupId',
    label: 'accessControl.field.PeopleGroup',
    kind: 'select',
    options: peopleGroupOptions,
  },
  peopleType: {
    name: 'PeopleTypeId',
    label: 'accessControl.field.PeopleType',
    kind: 'select',
    options: peopleTypeOptions,
  },
} as const;

/** The holder list's filters on them. */
export const holderGroupFilters: FilterDef[] = [
  { ...holderGroups.department, width: 200 },
  holderGroups.peopleGroup,
  { ...holderGroups.peopleType, width: 140 },
];

/** A new holder is valid from now for a year unless the operator says otherwise. */
export const DEFAULT_VALIDITY_YEARS = 1;

/**
 * The holder form: the spec's name rule, phone, citizen id (both of its messages), nation (57 entries,
 * searchable), department tree, people group and type, cards (free cards of the area), validity. The
 * rules are the shared validators the server applies to the same fields.
 */
export const holderForm: FormDef<HolderRow> = {
  width: 760,
  fields: [
    { name: 'Name', label: 'accessControl.field.Name', kind: 'text', required: true, rules: [chineseName] },
    { name: 'Phone', label: 'accessControl.field.Phone', kind: 'text', rules: [phone], maxLength: 11 },
    {
      name: 'CitizenId',
      label: 'accessControl.field.CitizenId',
      kind: 'text',
      rules: [citizenId],
      maxLength: 18,
    },
    {
      name: 'Nation',
      label: 'accessControl.field.Nation',
      kind: 'select',
      options: { kind: 'enum', def: nation },
    },
    holderGroups.department,
    holderGroups.peopleGroup,
    holderGroups.peopleType,
    {
      name: 'CardIds',
      label: 'accessControl.field.Cards',
      kind: 'multiSelect',
      fromItem: (h) => h.Cards.map((c) => ({ value: c.Id, label: c.CardNumber })),
      render: () => <FreeCardSelect />,
    },
    { name: 'ValidFrom', label: 'accessControl.field.ValidFrom', kind: 'datetime', required: true },
    { name: 'ValidTo', label: 'accessControl.field.ValidTo', kind: 'datetime', required: true },
    { name: 'Remark', label: 'accessControl.field.Remark', kind: 'textarea', maxLength: 200 },
  ],
  defaults: () => {
    // Defaults are the site's now and the end of the site's day.
    const now = siteNow().startOf('minute');
    return { Nation: 0, ValidFrom: now, ValidTo: now.add(DEFAULT_VALIDITY_YEARS, 'year').endOf('day') };
  },
  toBody: (values) => ({
    ...values,
    // Nulls clear a reference on edit; an empty list takes every card back.
    DepartmentId: values.DepartmentId ?? null,
    PeopleGroupId: values.PeopleGroupId ?? null,
    PeopleTypeId: values.PeopleTypeId ?? null,
    CardIds: ((values.CardIds as CardValue[] | undefined) ?? []).map((c) => c.value),
  }),
};
