export * from './levelIndicator.machine';
export * from './levelIndicator.connect';
export * from './levelIndicator.types';
