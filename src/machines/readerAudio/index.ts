export * from './readerAudio.machine';
export * from './readerAudio.connect';
export * from './readerAudio.types';
