export * from './rosterUpload.machine';
export * from './rosterUpload.connect';
export * from './rosterUpload.types';
