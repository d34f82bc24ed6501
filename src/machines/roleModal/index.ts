export * from './roleModal.machine';
export * from './roleModal.connect';
export * from './roleModal.types';
