export * from './player.machine';
export * from './player.connect';
export * from './player.rules';
export * from './player.types';
