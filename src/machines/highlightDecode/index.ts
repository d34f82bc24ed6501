export * from './highlightDecode.machine';
export * from './highlightDecode.connect';
export * from './highlightDecode.types';
