export * from './transitions.ts';
