export * from './wordAudio.machine';
export * from './wordAudio.connect';
export * from './wordAudio.types';
