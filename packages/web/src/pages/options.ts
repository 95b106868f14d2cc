import type { DepartmentOption } from '@gatehouse/shared';
import { http } from '../core/http.ts';
import type { Option, OptionSource } from '../components/list-page/index.ts';

/** Choices loaded from the server, shared by every screen whose form refers to these records. */
interface Named {
  Id: number;
  Name: string;
}

const toTree = (nodes: DepartmentOption[]): Option[] =>
  nodes.map((n) => ({
    value: n.Id,
    label: n.Name,
    ...(n.Children.length ? { children: toTree(n.Children) } : {}),
  }));

export const roleOptions: OptionSource = {
  kind: 'remote',
  key: 'roles',
  load: async () =>
    (await http.get<Named[]>('/api/Options/Roles')).map((r) => ({ value: r.Id, label: r.Name })),
};

export const departmentOptions: OptionSource = {
  kind: 'remote',
  key: 'departments',
  load: async () => toTree(await http.get<DepartmentOption[]>('/api/Options/Departments')),
};

export const peopleGroupOptions: OptionSource = {
  kind: 'remote',
  key: 'peopleGroups',
  load: async () =>
    (await http.get<Named[]>('/api/Options/PeopleGroups')).map((g) => ({ value: g.Id, label: g.Name })),
};

export const peopleTypeOptions: OptionSource = {
  kind: 'remote',
  key: 'peopleTypes',
  load: async () =>
    (await http.get<Named[]>('/api/Options/PeopleTypes')).map((g) => ({ value: g.Id, label: g.Name })),
};

/** The areas the signed-in user operates (from the session), for area pickers. */
export function areaOptions(areas: readonly Named[]): OptionSource {
  return { kind: 'static', options: () => areas.map((a) => ({ value: a.Id, label: a.Name })) };
}
