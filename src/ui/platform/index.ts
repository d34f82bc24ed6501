export * from './api';
export * from './clientId';
export * from './env';
export * from './html';
export * from './media';
export * from './navigation';
export * from './storage';
