export * from './access.machine';
export * from './access.rules';
export * from './access.types';
