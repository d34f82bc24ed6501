export * from './toolbar.machine';
export * from './toolbar.connect';
export * from './toolbar.types';
