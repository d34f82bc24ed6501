export * from './readingSession.machine';
export * from './readingSession.connect';
export * from './readingSession.types';
