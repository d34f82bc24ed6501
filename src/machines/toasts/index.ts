export * from './toasts.machine';
export * from './toasts.connect';
export * from './toasts.types';
