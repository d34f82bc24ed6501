export * from './copyLink.machine';
export * from './copyLink.connect';
export * from './copyLink.types';
