export * from './classCode.machine';
export * from './classCode.connect';
export * from './classCode.rules';
export * from './classCode.types';
