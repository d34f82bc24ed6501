export * from './passageLoading.machine';
export * from './passageLoading.connect';
export * from './passageLoading.types';
