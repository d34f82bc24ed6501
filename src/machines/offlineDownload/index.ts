export * from './offlineDownload.machine';
export * from './offlineDownload.connect';
export * from './offlineDownload.types';
