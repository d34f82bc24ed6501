export * from './readerColumn.machine';
export * from './readerColumn.connect';
export * from './readerColumn.types';
export * from './readerColumn.rules';
