export * from './define.ts';
export * from './labels.ts';
export * from './common.ts';
export * from './access-control.ts';
export * from './doors.ts';
export * from './access-rules.ts';
export * from './garage.ts';
export * from './registry.ts';
