export * from './missingEdition.machine';
export * from './missingEdition.connect';
export * from './missingEdition.types';
