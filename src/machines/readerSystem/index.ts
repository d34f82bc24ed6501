export * from './readerSystem.types';
export * from './readerSystem.rules';
export * from './readerSystem.children';
export * from './readerSystem.machine';
