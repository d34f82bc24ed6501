// Worker-thread entry for the narration pool. Plain JavaScript so that it starts the same under
// `node --import tsx`, vitest and the bench: it loads the TypeScript worker through tsx's API.
import { tsImport } from 'tsx/esm/api';

await tsImport('./worker.ts', import.meta.url);
