export * from './premiumDialog.machine';
export * from './premiumDialog.types';
