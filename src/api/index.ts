export * from './client';
// The zod-free error mapping; the body check (`errorsOfBody`, which imports zod) is loaded with the validation.
export * from './apiError';
export * from './queries';
export * from './primed';
