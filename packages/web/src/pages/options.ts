import { OptionsApi, type DepartmentOption, type Option as Named } from '@gatehouse/shared';
import { call } from '../core/api.ts';
import { useAreaStore } from '../stores/area.ts';
import type { Option, OptionSource } from '../components/list-page/index.ts';

/** Choices loaded from the server, shared by every screen whose form refers to these records. */
const named = (items: Named[]): Option[] => items.map((i) => ({ value: i.Id, label: i.Name }));

const toTree = (nodes: DepartmentOption[]): Option[] =>
  nodes.map((n) => ({
    value: n.Id,
    label: n.Name,
    ...(n.Children.length ? { children: toTree(n.Children) } : {}),
  }));

export const roleOptions: OptionSource = {
  kind: 'remote',
  key: 'roles',
  load: async () => named(await call(OptionsApi.roles)),
};

export const departmentOptions: OptionSource = {
  kind: 'remote',
  key: 'departments',
  load: async () => toTree(await call(OptionsApi.departments)),
};

export const peopleGroupOptions: OptionSource = {
  kind: 'remote',
  key: 'peopleGroups',
  load: async () => named(await call(OptionsApi.peopleGroups)),
};

export const peopleTypeOptions: OptionSource = {
  kind: 'remote',
  key: 'peopleTypes',
  load: async () => named(await call(OptionsApi.peopleTypes)),
};

/** The areas the signed-in user operates (from the session), for area pickers. */
export const areaOptions: OptionSource = {
  kind: 'static',
  options: () => named(useAreaStore.getState().areas),
};
