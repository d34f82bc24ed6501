export * from './listenFlow.machine';
export * from './listenFlow.connect';
export * from './listenFlow.types';
export * from './listenFlow.rules';
