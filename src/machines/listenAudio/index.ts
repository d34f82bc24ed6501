export * from './listenAudio.machine';
export * from './listenAudio.connect';
export * from './listenAudio.types';
