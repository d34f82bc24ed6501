export * from './client';
// The zod-free error mapping; `apiErrorFromBody` (which imports zod) is in './errors', loaded with the validation.
export * from './apiError';
export * from './queries';
