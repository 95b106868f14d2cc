export * from './department.ts';
export * from './people-group.ts';
